import TestSupport

extension PrivateBus {
    /// A private bus for the benchmarks: the tests' bus, with room for the hundreds of subscriber
    /// connections the throughput and soak scenarios open.
    static func forBenchmarks() throws -> PrivateBus {
        try PrivateBus(extraConfig: """
            <limit name="max_completed_connections">10000</limit>
            <limit name="max_connections_per_user">10000</limit>
            """)
    }
}
