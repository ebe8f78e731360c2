import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET through its own URLSession, with a deadline on the whole exchange and a cap on the
/// body that holds while the body arrives.
///
/// Guarantees: the exchange ends (answer, error or cancellation) at most `deadline` seconds after
/// it started, however slowly the server sends; at most `maximumBytes` of the body are ever held
/// (an answer that says it is longer, or turns out to be, is cut off at once and reported as too
/// large); the session belongs to this one request, so a slow server never holds up the requests
/// of other sources, not even of those on the same host.
final class BoundedDownload: NSObject, URLSessionDataDelegate, Sendable {
    /// How the exchange ended.
    enum Ending: Sendable {
        /// The server answered in full: its response and body.
        case answered(HTTPURLResponse, Data)
        /// The body was longer than allowed (and was cut off once that was known).
        case tooLarge
        /// The deadline passed first.
        case timedOut
        /// The transport failed (connection refused, reset, too many redirects…).
        case failed(any Error)
    }

    private struct State {
        var response: URLResponse?
        var body = Data()
        var tooLarge = false
        var timedOut = false
        var finish: (@Sendable (Ending) -> Void)?
    }

    private let maximumBytes: Int
    private let state = Mutex(State())

    private init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Runs `request` to its end, which comes by `deadline` seconds at the latest.
    static func run(_ request: URLRequest, deadline: Double, maximumBytes: Int) async -> Ending {
        let download = BoundedDownload(maximumBytes: maximumBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.timeoutIntervalForRequest = deadline
        configuration.timeoutIntervalForResource = deadline
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        // The session holds its delegate until it is invalidated; this lets both go once done.
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
                download.state.withLock { $0.finish = { continuation.resume(returning: $0) } }
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak task] in
                    download.state.withLock { $0.timedOut = true }
                    task?.cancel()
                }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let length = response.expectedContentLength
        let refuse = (response as? HTTPURLResponse)?.statusCode == 200 && length > Int64(maximumBytes)
        state.withLock { state in
            state.response = response
            state.tooLarge = refuse
        }
        completionHandler(refuse ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let cutOff = state.withLock { state -> Bool in
            guard !state.tooLarge else { return false }
            if state.body.count + data.count > maximumBytes {
                state.tooLarge = true
                state.body = Data()
                return true
            }
            state.body.append(data)
            return false
        }
        // Cancelled from outside this callback: libcurl ignores a cancellation from within it.
        if cutOff { DispatchQueue.global().async { dataTask.cancel() } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (finish, ending) = state.withLock { state -> ((@Sendable (Ending) -> Void)?, Ending) in
            let finish = state.finish
            state.finish = nil
            let ending: Ending
            if state.tooLarge {
                ending = .tooLarge
            } else if state.timedOut || (error as? URLError)?.code == .timedOut {
                ending = .timedOut
            } else if let error {
                ending = .failed(error)
            } else if let response = state.response as? HTTPURLResponse {
                ending = .answered(response, state.body)
            } else {
                ending = .failed(URLError(.badServerResponse))
            }
            // The deadline's timer holds this object until it fires: not the body as well.
            state.body = Data()
            return (finish, ending)
        }
        finish?(ending)
    }
}
