import CDBus
import Glibc

extension EventLoop {
    /// Blocks `signals` in the calling thread so that they queue for a signalfd instead of running
    /// their default action. Call it on the main thread before starting other threads, so that
    /// every thread inherits the mask and the loop's signalfd sees the process's signals.
    public static func blockSignals(_ signals: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        let result = pthread_sigmask(SIG_BLOCK, &mask, nil)
        guard result == 0 else { throw SystemCallError(call: "pthread_sigmask", code: result) }
    }

    /// Calls `handler` on this thread when `signal` arrives (through a signalfd; the signal is
    /// blocked in this thread first). Replaces an earlier handler of the same signal.
    public func onSignal(_ signal: Int32, handler: @escaping (Int32) -> Void) throws {
        assertInLoopThread()
        try EventLoop.blockSignals([signal])
        signalHandlers[signal] = handler
        try updateSignalFD()
    }

    /// Stops handling `signal` (it stays blocked in this thread).
    public func removeSignalHandler(_ signal: Int32) throws {
        assertInLoopThread()
        signalHandlers[signal] = nil
        try updateSignalFD()
    }

    private func updateSignalFD() throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signalHandlers.keys { sigaddset(&mask, signal) }
        let fd = cdbus_signalfd(signalFD, &mask)
        guard fd >= 0 else { throw SystemCallError.last("signalfd") }
        if signalFD < 0 {
            signalFD = fd
            _ = try addHandler(fd: fd, events: .readable) { [unowned self] _ in
                self.signalFDReady()
            }
        }
    }

    private func signalFDReady() {
        while true {
            let signal = cdbus_signalfd_read(signalFD)
            guard signal > 0 else { return }
            signalHandlers[signal]?(signal)
        }
    }
}
