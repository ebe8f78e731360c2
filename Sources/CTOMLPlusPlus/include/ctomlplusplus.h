#ifndef CTOMLPLUSPLUS_H
#define CTOMLPLUSPLUS_H

/* A C view of toml++ (Debian's libtomlplusplus-dev, compiled header-only into this target) for
 * Swift: parse a document, walk its tables and arrays, read its values. Nothing here allocates
 * but the parse: keys and strings point into the document and live as long as it does. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A parsed document (its root table); free it with ctoml_free. */
typedef struct ctoml_document ctoml_document;
/** A node of a document: a table, an array or a value. */
typedef struct ctoml_node ctoml_node;

/** What a node holds. */
typedef enum ctoml_type {
    CTOML_NONE = 0,
    CTOML_TABLE,
    CTOML_ARRAY,
    CTOML_STRING,
    CTOML_INTEGER,
    CTOML_FLOAT,
    CTOML_BOOLEAN,
    CTOML_DATE,
    CTOML_TIME,
    CTOML_DATE_TIME,
} ctoml_type;

/** UTF-8 bytes inside a document (not NUL-terminated). */
typedef struct ctoml_string {
    const char *bytes;
    size_t length;
} ctoml_string;

/** Why a parse failed: the parser's message (malloc'ed, the caller frees it) and the line it
 *  points at (1-based; 0 when the parser could not place it, as when memory ran out). */
typedef struct ctoml_failure {
    char *description;
    uint32_t line;
} ctoml_failure;

/** Parses `length` bytes of UTF-8 at `source`: the document, or NULL with `failure` filled. */
ctoml_document *ctoml_parse(const char *source, size_t length, ctoml_failure *failure);
/** Frees a document and every node, key and string in it. */
void ctoml_free(ctoml_document *document);
/** The document's root table. */
const ctoml_node *ctoml_root(const ctoml_document *document);

/** What `node` holds. */
ctoml_type ctoml_type_of(const ctoml_node *node);

/** How many keys the table `node` has (0 when it is no table). */
size_t ctoml_table_size(const ctoml_node *node);
/** Writes the first `capacity` keys of the table `node`, in the table's order, to `keys`. */
void ctoml_table_keys(const ctoml_node *node, ctoml_string *keys, size_t capacity);
/** The node under `key` in the table `node`; NULL when it has none or `node` is no table. */
const ctoml_node *ctoml_table_get(const ctoml_node *node, const char *key, size_t length);

/** How many elements the array `node` has (0 when it is no array). */
size_t ctoml_array_size(const ctoml_node *node);
/** Element `index` of the array `node`; NULL past its end or when `node` is no array. */
const ctoml_node *ctoml_array_get(const ctoml_node *node, size_t index);

/** The string `node` holds, in `value`; false when it holds something else. */
bool ctoml_string_value(const ctoml_node *node, ctoml_string *value);
/** The integer `node` holds, in `value`; false when it holds something else. */
bool ctoml_integer_value(const ctoml_node *node, int64_t *value);
/** The floating-point number `node` holds, in `value`; false when it holds something else. */
bool ctoml_float_value(const ctoml_node *node, double *value);
/** The boolean `node` holds, in `value`; false when it holds something else. */
bool ctoml_boolean_value(const ctoml_node *node, bool *value);

#ifdef __cplusplus
}
#endif

#endif
