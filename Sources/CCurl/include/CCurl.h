#ifndef TICKERD_CCURL_H
#define TICKERD_CCURL_H

// Typed, non-variadic wrappers over the libcurl calls Swift cannot make itself
// (curl_easy_setopt and curl_easy_getinfo are variadic), plus a once-only global init.

#include <curl/curl.h>

/// Runs curl_global_init(CURL_GLOBAL_DEFAULT) exactly once per process, however many threads
/// call this at once; returns its result (the same on every call).
CURLcode ccurl_global_init_once(void);

/// curl_easy_setopt for an option that takes a long.
CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);

/// curl_easy_setopt for an option that takes a curl_off_t.
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);

/// curl_easy_setopt for an option that takes a C string (libcurl copies it) or a pointer
/// (a callback's user data, an error buffer, a header list) that the caller keeps alive.
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, const void *value);

/// curl_easy_setopt(CURLOPT_WRITEFUNCTION): `callback` receives each piece of the body.
CURLcode ccurl_setopt_write_function(CURL *handle, curl_write_callback callback);

/// curl_easy_setopt(CURLOPT_XFERINFOFUNCTION), with CURLOPT_NOPROGRESS turned off so that it is
/// called: a non-zero return aborts the transfer.
CURLcode ccurl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);

/// curl_easy_getinfo for an item that gives a long (CURLINFO_RESPONSE_CODE…).
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

/// curl_easy_getinfo for an item that gives a string owned by the handle (CURLINFO_EFFECTIVE_URL,
/// CURLINFO_CONTENT_TYPE…); `*value` may be set to NULL.
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, const char **value);

#endif
