/// Writes one whole cluster of a tape into a frame. The frame path asks a writer for every cluster
/// it shows, so effects can show a cluster differently — always in the same number of cells.
protocol ClusterWriter {
    /// Appends cluster `index` of `tape`, or what stands for it in exactly as many cells.
    mutating func append(cluster index: Int, of tape: Tape, to out: inout [UInt8])
    /// Appends the consecutive clusters `run` of `tape` (each as ``append(cluster:of:to:)`` would).
    mutating func append(clusters run: Range<Int>, of tape: Tape, to out: inout [UInt8])
}

extension ClusterWriter {
    /// One cluster after the other.
    mutating func append(clusters run: Range<Int>, of tape: Tape, to out: inout [UInt8]) {
        for index in run { append(cluster: index, of: tape, to: &out) }
    }
}

/// Writes clusters as they are (the path without effects).
struct PlainClusterWriter: ClusterWriter {
    @inline(__always)
    func append(cluster index: Int, of tape: Tape, to out: inout [UInt8]) {
        tape.appendCluster(index, to: &out)
    }

    /// The run's bytes in one copy: the frame's hot path.
    @inline(__always)
    func append(clusters run: Range<Int>, of tape: Tape, to out: inout [UInt8]) {
        tape.appendClusters(run, to: &out)
    }
}
