/// Writes one whole cluster of a tape into a frame. The frame path asks a writer for every cluster
/// it shows, so effects can show a cluster differently — always in the same number of cells.
protocol ClusterWriter {
    /// Appends cluster `index` of `tape`, or what stands for it in exactly as many cells.
    mutating func append(cluster index: Int, of tape: Tape, to out: inout [UInt8])
}

/// Writes clusters as they are (the path without effects).
struct PlainClusterWriter: ClusterWriter {
    @inline(__always)
    func append(cluster index: Int, of tape: Tape, to out: inout [UInt8]) {
        tape.appendCluster(index, to: &out)
    }
}
