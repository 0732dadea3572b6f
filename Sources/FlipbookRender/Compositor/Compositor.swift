import Dispatch
import Flipbook
import FlipbookRaster
import Foundation
import Synchronization
import FlipbookPixels

/// The CPU compositor: draws what Core Animation would show for a render-tree snapshot
/// (`RenderLayer`) into a premultiplied RGBA8 `PixelBuffer`.
///
/// Two passes: a **planning** pass turns the tree into a flat list of device-space draw
/// operations (geometry chain, homogeneous clipping, zPosition order, culling, opacity groups,
/// masks, contents placement, shadows, transitions), then an **execution** pass runs that list
/// over horizontal bands of `bandHeight` rows, spread over `threadCount` workers. A pixel's
/// value depends only on its coordinates and the op list, so the output is byte-identical for
/// any thread count. Scratch buffers (group layers, coverage rows, mip levels) belong to the
/// compositor and are reused across frames.
///
/// **The plan of an unchanged snapshot is reused.** A snapshot never changes (`RenderLayer` is
/// immutable), so the planning pass is a pure function of (snapshot, output size, scale): the
/// compositor keeps the op list of the last frame and, when the next `render` gets the *same*
/// snapshot object at the same size and scale, runs that list again instead of planning it
/// anew. A static tree recorded frame after frame (the recorder hands over the same snapshot
/// while nothing in the tree changes, see ``Recorder``) then costs what drawing it costs:
/// W6b's 10,000 rounded-rectangle layers spend a third of a frame in planning. The bytes are
/// the same either way (planning is deterministic; tested). The kept list holds references to
/// the snapshot and the textures it draws until the next frame with another snapshot.
///
/// A `Compositor` renders one frame at a time (it is not `Sendable`); use one per thread to
/// render several frames concurrently.
public final class Compositor {
    /// Workers used by the execution pass (≥ 1).
    public let threadCount: Int
    /// Rows per band (the unit of parallel work). The default, 64, measured fastest on the
    /// peers' scenes with one and two threads (2026-11-27: against 32 rows, `w7-layers` −7 %,
    /// W6a −4 %, W6b and W1 −3 to −6 %; 96 and 128 no better, W1 slower at 128); a 1080-row
    /// frame is then 17 bands, enough to balance several workers. The bytes do not depend on it.
    public let bandHeight: Int
    /// Plans an emitter's particles from their flat records (`_Planner.particles`); false plans
    /// their nodes one by one through the general layer path (tests: the two give the same ops).
    package var plansParticlesFlat = true
    /// Leaves out clip groups that change nothing (`_Planner.endClipGroup`); false keeps every
    /// one (tests: the two give the same bytes).
    package var elidesClipGroups = true
    /// Skips the clear and the earlier draws' pixels in the 8-pixel blocks a later opaque draw
    /// covers (`_OcclusionMap`); false paints everything (tests: the two give the same bytes).
    package var occlusionCulling = true
    /// The blocks (8 pixels of a row) the last frame found covered by an opaque draw, summed over
    /// bands (a statistic for tests; 0 with `occlusionCulling` off).
    package private(set) var lastOccludedBlocks = 0
    /// Whether a `render` reuses planning from the frame before: the whole plan for the same
    /// snapshot object at the same size and scale, and for another snapshot the op runs of its
    /// sublayer nodes that the last frame showed too, with the same inputs (a moving tree
    /// whose static subtrees the snapshot kept; `_PlanRuns`). Default true; false plans every
    /// frame from scratch (tests, and the benchmarks' "plan each frame" rows).
    public var reusesPlans = true
    /// Whether the whole plan is kept for the next frame (with `reusesPlans`). The recorder
    /// turns it off for a tree whose snapshot is never handed over again.
    package var keepsPlan = true
    /// The last frame's sublayer runs (`_PlanRuns`).
    private let planRuns = _PlanRuns()
    private var scratch: [_WorkerScratch] = []
    private let mips = _MipCache()
    /// The last frame's plan and what it is a function of.
    private var kept: _KeptPlan?

    public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount, bandHeight: Int = 64) {
        self.threadCount = max(1, threadCount)
        self.bandHeight = max(1, bandHeight)
    }

    /// Renders `root` into `buffer` (whose size is the device size in pixels).
    ///
    /// - Parameters:
    ///   - scale: device pixels per point (the root's superlayer space is the device scaled by it).
    ///   - background: premultiplied colour the frame is filled with first; nil draws over the
    ///     buffer's current pixels.
    /// - Throws: ``CompositorError/invalidScale(_:)`` when `scale` is not finite and positive.
    public func render(_ root: RenderLayer, into buffer: inout PixelBuffer, scale: CGFloat = 1,
                       background: RGBA8? = nil) throws(CompositorError) {
        let s = Double(scale)
        guard s.isFinite, s > 0 else { throw .invalidScale(s) }
        let key = _KeptPlan.Key(width: buffer.width, height: buffer.height, scale: s, flatParticles: plansParticlesFlat)
        if reusesPlans, keepsPlan, let k = kept, k.key == key, k.root === root {
            execute(k.ops, draws: k.draws, bandLists: k.bandLists, into: &buffer, background: background, reused: true)
            reusedPlan = true
            plansReused += 1
            return
        }
        reusedPlan = false
        // Another snapshot: the kept plan's references are freed first (on the workers).
        dropKeptPlan()
        var ops = plan(root, width: buffer.width, height: buffer.height, scale: s)
        let lists = bandLists(ops, height: buffer.height), draws = _BandExecutor.unmanagedDraws(ops)
        execute(ops, draws: draws, bandLists: lists, into: &buffer, background: background, reused: false)
        if reusesPlans && keepsPlan {
            kept = _KeptPlan(key: key, root: root, ops: ops, draws: draws, bandLists: lists)
        } else {
            _OpMoves.release(&ops, workers: threadCount)
        }
    }

    /// Drops the kept plan (and with it the references to the last snapshot and its textures).
    public func discardKeptPlan() {
        planRuns.clear()
        dropKeptPlan()
    }

    /// Frees the kept whole plan's references (on the workers).
    private func dropKeptPlan() {
        guard var old = kept?.ops else { return }
        kept = nil
        _OpMoves.release(&old, workers: threadCount)
    }

    /// Whether the last `render` reused the plan of the frame before it, and how many did
    /// (tests, statistics).
    package private(set) var reusedPlan = false
    package private(set) var plansReused = 0
    /// Sublayers of the last planned frame whose op run came from the frame before.
    package private(set) var sublayerRunsReused = 0
    /// The shadow offscreens the last planned frame made, nested ones included (tests: the
    /// work bound of docs/limits.md).
    package private(set) var lastOffscreenWork = _OffscreenWork()

    /// Renders `root` into a new `width × height` buffer filled with `background` first.
    ///
    /// - Throws: ``CompositorError/invalidOutputSize(width:height:)`` for a side below 1,
    ///   ``CompositorError/outputTooLarge(width:height:limit:)`` above
    ///   `PixelBuffer.maximumDimension` (checked before allocating), ``CompositorError/invalidScale(_:)``.
    public func render(_ root: RenderLayer, width: Int, height: Int, scale: CGFloat = 1,
                       background: RGBA8 = .transparent) throws(CompositorError) -> PixelBuffer {
        guard width > 0, height > 0 else { throw .invalidOutputSize(width: width, height: height) }
        guard width <= PixelBuffer.maximumDimension, height <= PixelBuffer.maximumDimension else {
            throw .outputTooLarge(width: width, height: height, limit: PixelBuffer.maximumDimension)
        }
        var buffer = PixelBuffer(width: width, height: height)
        try render(root, into: &buffer, scale: scale, background: background)
        return buffer
    }

    /// The planning pass alone (for tests and tools): number of device-space operations.
    func plan(_ root: RenderLayer, width: Int, height: Int, scale: Double) -> [_Op] {
        var p = _Planner(width: width, height: height, scale: scale, mips: mips)
        p.parallelism = threadCount
        p.plansParticlesFlat = plansParticlesFlat
        p.elidesClipGroups = elidesClipGroups
        if reusesPlans {
            planRuns.begin(_PlanRuns.Settings(width: width, height: height, scale: scale, flatParticles: plansParticlesFlat))
            p.runs = planRuns
        }
        p.plan(root: root)
        if reusesPlans { planRuns.end(adding: p.newRuns, used: p.runHits) } else { planRuns.clear() }
        sublayerRunsReused = p.runHits
        lastOffscreenWork = p.offscreenWork
        mips.endFrame()
        return p.ops
    }

    /// Each band's op indices (`_BandExecutor.bandLists`) for a frame `height` rows high.
    private func bandLists(_ ops: [_Op], height: Int) -> [[Int32]] {
        _BandExecutor.bandLists(ops, bandHeight: bandHeight, bands: (height + bandHeight - 1) / bandHeight)
    }

    /// Each band's occlusion map (`_OcclusionMap`), kept with the plan: a frame that runs the
    /// kept plan again (the same ops, band lists and size) finds them built.
    private var bandMaps: [_OcclusionMap] = []
    /// Whether `bandMaps` were built from the kept plan.
    private var bandMapsValid = false

    /// Runs the plan over the frame's bands. `reused`: the plan is the one the last frame ran.
    private func execute(_ ops: [_Op], draws: [Unmanaged<_Draw>?], bandLists: [[Int32]], into buffer: inout PixelBuffer,
                         background: RGBA8?, reused: Bool) {
        let width = buffer.width, height = buffer.height, stride = buffer.bytesPerRow / 4
        let bandH = bandHeight
        let bands = (height + bandH - 1) / bandH
        while bandMaps.count < bands { bandMaps.append(_OcclusionMap()) }
        let maps = bandMaps
        let rebuild = !(reused && bandMapsValid)
        bandMapsValid = occlusionCulling && reusesPlans && keepsPlan
        let workers = min(threadCount, bands)
        while scratch.count < workers { scratch.append(_WorkerScratch()) }
        for s in scratch.prefix(workers) { s.prepare(width: stride, bandHeight: bandH) }
        let workerScratch = Array(scratch.prefix(workers))
        let occlusionCulling = self.occlusionCulling
        let owned = Atomic<Int>(0)
        defer { lastOccludedBlocks = owned.load(ordering: .relaxed) }
        buffer.withUnsafeMutableBytes { raw in
            let base = _SendablePointer(p: raw.baseAddress!.assumingMemoryBound(to: UInt32.self))
            let runBand = { @Sendable (band: Int, s: _WorkerScratch) in
                let y0 = band * bandH, y1 = min(height, y0 + bandH)
                let t = _Target(base: base.p + y0 * stride, stride: stride,
                                rect: _IRect(x0: 0, y0: y0, x1: width, y1: y1))
                // Occlusion (`_OcclusionMap`): the blocks later opaque draws cover are neither
                // cleared nor painted by what they hide.
                let occ = maps[band]
                s.occlusion = occ
                if occlusionCulling && rebuild {
                    occ.build(ops: ops, draws: draws, indices: bandLists[band], y0: y0, y1: y1, width: width)
                }
                s.occlusionInUse = occlusionCulling && occ.active
                if s.occlusionInUse { owned.add(occ.ownedBlocks, ordering: .relaxed) }
                if let background {
                    if s.occlusionInUse {
                        for y in y0..<y1 { occ.fill(t.row(y), y: y, width: width, color: background) }
                    } else {
                        for y in y0..<y1 { SpanBlend.fill(t.row(y), count: width, color: background) }
                    }
                }
                _BandExecutor.run(ops, draws: draws, indices: bandLists[band], frame: t, scratch: s)
                s.occlusionInUse = false
            }
            if workers == 1 {
                for b in 0..<bands { runBand(b, workerScratch[0]) }
            } else {
                // Bands are handed out dynamically (next free band), so a worker whose core is
                // shared with another process simply takes fewer bands. Bands are independent and
                // each worker has its own scratch, so the bytes do not depend on who drew what.
                let next = Atomic<Int>(0)
                DispatchQueue.concurrentPerform(iterations: workers) { k in
                    while true {
                        let b = next.add(1, ordering: .relaxed).oldValue
                        if b >= bands { break }
                        runBand(b, workerScratch[k])
                    }
                }
            }
        }
    }
}

struct _SendablePointer: @unchecked Sendable { let p: UnsafeMutablePointer<UInt32> }

/// A frame's plan kept for the next frame: valid for the same snapshot object (held, so its
/// identity cannot be taken by another) at the same size, scale and particle planning.
struct _KeptPlan {
    struct Key: Equatable {
        let width: Int, height: Int
        let scale: Double
        let flatParticles: Bool
    }
    let key: Key
    let root: RenderLayer
    let ops: [_Op]
    /// `ops`' draws unretained (`_BandExecutor.unmanagedDraws`), valid while `ops` lives.
    let draws: [Unmanaged<_Draw>?]
    let bandLists: [[Int32]]
}

/// Why the compositor refused a frame.
public enum CompositorError: Error, Equatable, CustomStringConvertible, Sendable {
    case invalidOutputSize(width: Int, height: Int)
    case outputTooLarge(width: Int, height: Int, limit: Int)
    case invalidScale(Double)

    public var description: String {
        switch self {
        case let .invalidOutputSize(w, h):
            return "invalid output size \(w)×\(h): width and height must be at least 1"
        case let .outputTooLarge(w, h, limit):
            return "output size \(w)×\(h) exceeds the limit of \(limit)×\(limit) pixels (PixelBuffer.maximumDimension)"
        case let .invalidScale(s):
            return "invalid device scale \(s): it must be finite and greater than 0"
        }
    }
}
