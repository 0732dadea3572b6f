import Flipbook
import FlipbookPNG
import FlipbookRender
import Foundation
import FlipbookPixels

/// What every sample program shares: a run loop, a root layer of the output size, a recorder,
/// and the command line `sample-NAME [OUTPUT_FOLDER] [LAST_FRAME]` (default folder
/// `sample-out/NAME`, default: every frame). For tests, the environment variables
/// `FLIPBOOK_SAMPLE_FIRST` (first frame rendered) and `FLIPBOOK_SAMPLE_THREADS` (rendering
/// threads) vary how the same frames are produced.
public struct Sample {
    public let name: String
    public let loop = VirtualRunLoop()
    public let root: CALayer
    public let recorder: Recorder

    /// A root of `width × height` points filled with `background`, recorded for `duration` s.
    public init(_ name: String, width: Double, height: Double, duration: Double, fps: Double = 30,
                background: CGColor = .white) {
        self.name = name
        let root = loop.run { () -> CALayer in
            let r = CALayer()
            r.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            r.position = CGPoint(x: width / 2, y: height / 2)
            r.backgroundColor = background
            return r
        }
        self.root = root
        var settings = RecordingSettings(width: width, height: height, fps: fps, duration: duration, background: background)
        let args = CommandLine.arguments
        if args.count > 2, let last = Int(args[2]) { settings.frames = 0...max(0, min(last, settings.frames.upperBound)) }
        // Tests only: start at a later frame (the frames before are simulated, not rendered).
        if let first = ProcessInfo.processInfo.environment["FLIPBOOK_SAMPLE_FIRST"].flatMap(Int.init) {
            settings.frames = min(max(0, first), settings.frames.upperBound)...settings.frames.upperBound
        }
        recorder = Recorder(root: root, settings: settings)
    }

    /// Builds layers with this sample's run loop current (layers belong to the run loop that
    /// is current when they are created).
    public func build<R>(_ body: () -> R) -> R { loop.run(body) }

    /// A solid `w × h` image with a white stripe on the left (so pushes show their direction).
    public static func card(_ c: RGBA8, stripe: RGBA8 = .white, width: Int = 64, height: Int = 64) -> CGImage {
        var b = PixelBuffer(width: width, height: height)
        for y in 0..<height { for x in 0..<width { b[x, y] = x < 8 ? stripe : c } }
        return CGImage(pixelBuffer: b)
    }

    /// Records every frame to PNG files and prints where they are. Exits 1 on failure.
    public func run() {
        let folder = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "sample-out/\(name)"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            // Tests only: the number of rendering threads (output bytes never depend on it).
            var options = RecordingOptions()
            if let n = ProcessInfo.processInfo.environment["FLIPBOOK_SAMPLE_THREADS"].flatMap(Int.init) { options.threads = max(1, n) }
            let r = try recorder.record(to: PNGSequenceSink(directory: folder), options: options)
            print("\(name): \(r.framesWritten) frames in \(folder)/")
        } catch {
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            exit(1)
        }
    }
}
