import CCurl
import Foundation
import Synchronization

/// One GET through a libcurl easy handle of its own, performed on a thread of its own, with a
/// deadline on the whole exchange and a cap on the body that holds while the body arrives.
///
/// Guarantees: the exchange ends (answer, error or cancellation) at most `deadline` seconds after
/// it started, however slowly the server sends; while it waits for the server its thread sleeps
/// in poll(2) rather than spinning; at most `maximumBytes` of the body are ever held (an answer
/// that says it is longer, or turns out to be, is cut off at once and reported as too large);
/// the handle and thread belong to this one request, so a slow server never holds up the
/// requests of other sources, not even of those on the same host. Redirects (any 3xx with a
/// Location, http and https only) are followed up to ``maximumRedirects`` times; gzip and
/// deflate answers are decoded.
final class BoundedDownload: Sendable {
    /// The final answer of a completed exchange (after redirects).
    struct Answer: Sendable {
        /// The HTTP status code.
        var status: Int
        /// The answer's ETag header, or nil.
        var etag: String?
        /// The answer's Last-Modified header, or nil.
        var lastModified: String?
        /// The answer's Content-Type header, or nil.
        var contentType: String?
        /// The URL that gave this answer once redirects were followed.
        var url: URL?
        /// The body, decoded from its Content-Encoding.
        var body: Data
    }

    /// How the exchange ended.
    enum Ending: Sendable {
        /// The server answered in full.
        case answered(Answer)
        /// The body was longer than allowed (and was cut off once that was known).
        case tooLarge
        /// The deadline passed first.
        case timedOut
        /// The transport failed (connection refused, reset, too many redirects…), in words.
        case failed(String)
    }

    /// How many redirects one fetch follows before it fails with "too many HTTP redirects".
    static let maximumRedirects = 10

    private struct Received {
        var body = Data()
        var tooLarge = false
    }

    private let maximumBytes: Int
    private let received = Mutex(Received())
    private let cancelled = Atomic(false)

    private init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// GETs `url` with the extra request `headers` ("Name: value") to its end, which comes by
    /// `deadline` seconds at the latest, or soon after the calling task is cancelled.
    static func run(_ url: URL, headers: [String], userAgent: String, deadline: Double, maximumBytes: Int) async -> Ending {
        let download = BoundedDownload(maximumBytes: maximumBytes)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
                let thread = Thread {
                    continuation.resume(returning: download.perform(url, headers: headers, userAgent: userAgent, deadline: deadline))
                }
                thread.name = "fetch"
                thread.start()
            }
        } onCancel: {
            download.cancelled.store(true, ordering: .relaxed)
        }
    }

    /// Takes one piece of the body: false (which makes libcurl abort) once the body passes the cap.
    private func receive(_ piece: UnsafeRawBufferPointer) -> Bool {
        received.withLock { received in
            guard !received.tooLarge else { return false }
            if received.body.count + piece.count > maximumBytes {
                received.tooLarge = true
                received.body = Data()
                return false
            }
            received.body.append(contentsOf: piece)
            return true
        }
    }

    /// Performs the exchange on the calling thread, blocking it until the end.
    private func perform(_ url: URL, headers: [String], userAgent: String, deadline: Double) -> Ending {
        guard ccurl_global_init_once() == CURLE_OK, let handle = curl_easy_init() else {
            return .failed("libcurl could not be initialised")
        }
        defer { curl_easy_cleanup(handle) }
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorText.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for header in headers { headerList = curl_slist_append(headerList, header) }
        defer { curl_slist_free_all(headerList) }
        // The callbacks run on this thread, within curl_easy_perform, while `self` is alive.
        let context = Unmanaged.passUnretained(self).toOpaque()

        var setup = [
            ccurl_setopt_pointer(handle, CURLOPT_URL, url.absoluteString),
            ccurl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            ccurl_setopt_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, Self.maximumRedirects),
            ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Int(deadline * 1000)),
            ccurl_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, ""),
            ccurl_setopt_pointer(handle, CURLOPT_USERAGENT, userAgent),
            ccurl_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximumBytes)),
            ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText),
            ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
            ccurl_setopt_write_function(handle) { buffer, size, count, context in
                guard let context else { return 0 }
                let download = Unmanaged<BoundedDownload>.fromOpaque(context).takeUnretainedValue()
                let length = size * count
                return download.receive(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
            },
            ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context),
            ccurl_setopt_xferinfo_function(handle) { context, _, _, _, _ in
                guard let context else { return 0 }
                return Unmanaged<BoundedDownload>.fromOpaque(context).takeUnretainedValue().cancelled.load(ordering: .relaxed) ? 1 : 0
            },
        ]
        if let headerList { setup.append(ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)) }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            return .failed(String(cString: curl_easy_strerror(failed)))
        }

        let result = curl_easy_perform(handle)
        let (body, tooLarge) = received.withLock { received in
            defer { received.body = Data() }
            return (received.body, received.tooLarge)
        }
        if tooLarge || result == CURLE_FILESIZE_EXCEEDED { return .tooLarge }
        switch result {
        case CURLE_OK:
            var status = 0
            _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
            var effective: UnsafePointer<CChar>?
            _ = ccurl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
            var contentType: UnsafePointer<CChar>?
            _ = ccurl_getinfo_string(handle, CURLINFO_CONTENT_TYPE, &contentType)
            return .answered(Answer(status: status, etag: Self.header("ETag", of: handle),
                                    lastModified: Self.header("Last-Modified", of: handle),
                                    contentType: contentType.map { String(cString: $0) },
                                    url: effective.flatMap { URL(string: String(cString: $0)) }, body: body))
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut
        case CURLE_ABORTED_BY_CALLBACK where cancelled.load(ordering: .relaxed):
            return .failed("cancelled")
        case CURLE_TOO_MANY_REDIRECTS:
            return .failed("too many HTTP redirects")
        default:
            let detail = String(cString: errorText)
            return .failed(detail.isEmpty ? String(cString: curl_easy_strerror(result)) : detail)
        }
    }

    /// The value of header `name` in the last answer of the exchange (after redirects), or nil.
    private static func header(_ name: String, of handle: UnsafeMutableRawPointer) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(handle, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK, let found,
              let value = found.pointee.value else { return nil }
        return String(cString: value)
    }
}
