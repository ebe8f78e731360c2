import Foundation

/// What a server said about a resource so that the next request can be conditional: its ETag
/// and Last-Modified, sent back as If-None-Match and If-Modified-Since.
public struct HTTPValidators: Sendable, Equatable {
    /// The ETag header of the last full answer, or nil.
    public var etag: String?
    /// The Last-Modified header of the last full answer, or nil.
    public var lastModified: String?

    /// Validators with the given headers (none by default: an unconditional request).
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// The answer to a conditional GET.
public enum HTTPFetchOutcome: Sendable, Equatable {
    /// 200: the body, the validators for the next request, the `charset` parameter of the
    /// answer's Content-Type (nil when it has none), and the URL the body came from once
    /// redirects were followed (the base its relative links resolve against).
    case modified(Data, HTTPValidators, charset: String?, from: URL)
    /// 304: what was fetched before is still current.
    case notModified
}

/// Why a fetch failed, in words a log line can carry after the source's name.
public struct HTTPFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong (the HTTP status, or the transport's error).
    public let message: String

    /// An error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// Fetches one http(s) URL with conditional GETs, through libcurl: no response cache, so every
/// call reaches the server and a 304 is reported as `.notModified`. Each fetch has a libcurl
/// handle and a thread of its own (see ``BoundedDownload``), so one slow server delays only its
/// own sources, and waiting for it costs no CPU.
public struct ConditionalFetcher: Sendable {
    /// The resource.
    public let url: URL
    /// How long one request may take, in seconds, from the request to the last byte of the answer
    /// (a server that trickles its answer is cut off then, too).
    public let timeout: Double
    /// A larger body is an error (a feed or calendar this big is a mistake or an attack); no more
    /// than this is ever held in memory.
    public let maximumBytes: Int

    /// A fetcher for `url`; throws unless it is an http or https URL.
    public init(url: URL, timeout: Double = 30, maximumBytes: Int = 8 << 20) throws(HTTPFetchError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            throw HTTPFetchError("not an http(s) URL: \(url.absoluteString)")
        }
        self.url = url
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    /// GETs the URL (following redirects), conditional on `validators`; 200 gives `.modified`, 304 `.notModified`,
    /// anything else (another status, a transport error, a body over `maximumBytes`, no complete
    /// answer within `timeout`) throws, saying which in words.
    public func fetch(with validators: HTTPValidators) async throws(HTTPFetchError) -> HTTPFetchOutcome {
        var headers: [String] = []
        if let etag = validators.etag { headers.append("If-None-Match: \(etag)") }
        if let date = validators.lastModified { headers.append("If-Modified-Since: \(date)") }
        let answer: BoundedDownload.Answer
        switch await BoundedDownload.run(url, headers: headers, userAgent: "tickerd-sources", deadline: timeout,
                                         maximumBytes: maximumBytes) {
        case let .answered(received):
            answer = received
        case .tooLarge:
            throw HTTPFetchError("\(url.absoluteString): the body is over the limit of \(maximumBytes) bytes")
        case .timedOut:
            throw HTTPFetchError("cannot fetch \(url.absoluteString): no complete answer within \(Self.seconds(timeout))")
        case let .failed(reason):
            throw HTTPFetchError("cannot fetch \(url.absoluteString): \(reason)")
        }
        switch answer.status {
        case 304:
            return .notModified
        case 200:
            return .modified(answer.body, HTTPValidators(etag: answer.etag, lastModified: answer.lastModified),
                             charset: Self.charset(ofContentType: answer.contentType), from: answer.url ?? url)
        default:
            throw HTTPFetchError("\(url.absoluteString): HTTP \(answer.status) " + HTTPStatus.reason(answer.status))
        }
    }

    /// `seconds` as a log line says it (`30 s`, `0.5 s`).
    static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }

    /// The `charset` parameter of a Content-Type value (`text/xml; charset="ISO-8859-1"` gives
    /// `ISO-8859-1`), unquoted; nil when there is none.
    public static func charset(ofContentType value: String?) -> String? {
        guard let value else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            let charset = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return charset.isEmpty ? nil : charset
        }
        return nil
    }
}
