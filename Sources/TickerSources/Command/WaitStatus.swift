/// How a wait status reads in a log: `exit status 3` or `killed by signal 9`.
func describeWaitStatus(_ status: Int32) -> String {
    let signal = status & 0x7F
    if signal == 0 { return "exit status \((status >> 8) & 0xFF)" }
    return "killed by signal \(signal)"
}

/// Whether a wait status is a clean exit (status 0).
func exitedCleanly(_ status: Int32) -> Bool { status & 0x7F == 0 && (status >> 8) & 0xFF == 0 }
