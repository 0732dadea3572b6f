import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import FlipbookRender

/// `_ChunkOps`: the planner's chunks (`_Planner.planInChunks`) each hand their ops, new runs and
/// run hits to one slot from their own thread. Each slot must be written without touching the
/// others: the slots used to be elements of arrays stored in the class, so every `set` from a
/// worker was a modifying access of the same array (its buffer reference written back by
/// `withUnsafeMutableBufferPointer`) — a data race `make test-tsan` reported, and a lost chunk
/// had a copy-on-write ever happened between two workers.
@Suite struct ChunkOpsTests {
    @Test func everyChunkKeepsItsOwnOpsRunsAndHits() {
        let chunks = 64
        let results = _ChunkOps(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            usleep(2000)   // as a chunk's planning: long enough for the workers to share the chunks
            results.set(c, (0..<(c % 5 + 1)).map { OpMovesTests.draw(1000 * c + $0) }, [], hits: c)
        }
        #expect(results.hits == Array(0..<chunks))
        let lists = results.take()
        #expect(lists.count == chunks)
        for c in 0..<chunks {
            #expect(OpMovesTests.keys(lists[c]) == (0..<(c % 5 + 1)).map { 1000 * c + $0 }, "chunk \(c)")
        }
        let runs = results.takeRuns()
        #expect(runs.count == chunks && runs.allSatisfy { $0.isEmpty })
        #expect(results.take().isEmpty)   // handed over: nothing left
    }
}
