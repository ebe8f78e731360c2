import Synchronization

/// libical keeps global state (its error number, the table of built-in zones it loads on first
/// use), so every call into it from this module runs while holding this lock.
let libicalLock = Mutex<Void>(())
