import Foundation
import Glibc
import Testing
import FlipbookPixels
import FlipbookPNG
import FlipbookTestSupport
@testable import FlipbookRender

/// ``FFmpegEncoding`` (defaults, checks, arguments) and what ``FFmpegSink`` sends for alpha
/// formats — no real ffmpeg needed (a fake one records its input).
@Suite struct FFmpegEncodingTests {
    let binFolder = TemporaryDirectory(prefix: "flipbook-enc-bin-")
    let outFolder = TemporaryDirectory(prefix: "flipbook-enc-out-")

    @Test func defaultsPerContainer() {
        let expected: [(FFmpegEncoding.Container, FFmpegEncoding.Codec, FFmpegEncoding.PixelFormat, Int?)] = [
            (.mp4, .h264, .yuv420p, 18), (.mov, .prores, .yuva444p10le, nil), (.webm, .vp9, .yuva420p, 32),
            (.gif, .gif, .rgba, nil), (.apng, .apng, .rgba, nil), (.webp, .webp, .yuva420p, 80),
        ]
        for (container, codec, pixelFormat, quality) in expected {
            let e = FFmpegEncoding(container: container)
            #expect(e.codec == codec && e.pixelFormat == pixelFormat && e.effectiveQuality == quality, "\(container)")
            #expect(e.validate() == nil)
        }
        #expect(FFmpegEncoding(container: .mp4, codec: .h265).effectiveQuality == 23)
        #expect(!FFmpegEncoding(container: .mp4).keepsAlpha && FFmpegEncoding(container: .mov).keepsAlpha)
    }

    @Test func problemsNameTheValueAndTheChoices() {
        #expect(FFmpegEncoding(container: .mp4, codec: .vp9).validate()?.description == "codec vp9 cannot go in .mp4; choose h264 or h265")
        #expect(FFmpegEncoding(container: .webm, pixelFormat: .rgba).validate()?.description
                == "pixel format rgba is not one vp9 stores; choose yuva420p, yuv420p, yuv444p")
        #expect(FFmpegEncoding(container: .gif, quality: 3).validate() == .noQuality(codec: .gif))
        #expect(FFmpegEncoding(container: .webm, quality: 64).validate()?.description == "64 is outside vp9's range 0...63")
        #expect(FFmpegEncoding(container: .mp4, quality: 0).validate() == nil)
    }

    @Test func argumentsConvertWithBT709AndTag() {
        let mp4 = FFmpegEncoding(container: .mp4).outputArguments(width: 4, height: 2).joined(separator: " ")
        #expect(mp4.contains("-vf scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,format=yuv420p -c:v libx264 -crf 18"))
        #expect(mp4.contains("-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv"))
        let mov = FFmpegEncoding(container: .mov).outputArguments(width: 3, height: 3).joined(separator: " ")
        #expect(!mov.contains("pad="), "4:4:4 needs no even size")
        #expect(mov.contains("-c:v prores_ks -profile:v 4 -vendor apl0 -alpha_bits 16 -bsf:v prores_metadata=color_primaries=bt709"))
        #expect(FFmpegEncoding(container: .mp4).outputArguments(width: 3, height: 2).contains { $0.hasPrefix("pad=ceil(iw/2)*2:ceil(ih/2)*2,") })
        #expect(FFmpegEncoding(container: .mp4).outputArguments(width: 3, height: 2, padding: .white)
            .contains { $0.hasPrefix("pad=ceil(iw/2)*2:ceil(ih/2)*2:color=0xFFFFFF,") })
        let webm = FFmpegEncoding(container: .webm).outputArguments(width: 3, height: 3, padding: .white).joined(separator: " ")
        #expect(webm.contains("-vf pad=ceil(iw/2)*2:ceil(ih/2)*2:color=black@0,scale="))
        let gif = FFmpegEncoding(container: .gif).outputArguments(width: 3, height: 3).joined(separator: " ")
        #expect(gif.contains("palettegen=stats_mode=full:reserve_transparent=1") && !gif.contains("bt709"))
    }

    /// Alpha formats get straight (un-premultiplied) RGBA with the alpha kept; the others get
    /// the frame flattened onto the background.
    @Test func alphaFormatsReceiveStraightRGBA() throws {
        let bin = binFolder.path
        let script = bin + "/ffmpeg"
        try ("#!/bin/sh\nfor a; do out=\"$a\"; done; cat > \"$out\"\n").write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        var frame = PixelBuffer(width: 2, height: 1)
        frame[0, 0] = RGBA8(r: 0, g: 0, b: 128, a: 128)      // premultiplied half-transparent blue
        frame[1, 0] = .transparent
        let format = FrameSinkFormat(width: 2, height: 1, fps: 30, frames: 0...0)
        for (container, expected) in [(FFmpegEncoding.Container.mov, [0, 0, 255, 128, 0, 0, 0, 0] as [UInt8]),
                                      (.mp4, [0, 0, 128, 255, 0, 0, 0, 255])] {
            let path = outFolder.file("out." + container.rawValue)
            let sink = FFmpegSink(path: path, encoding: FFmpegEncoding(container: container), searchPath: bin)
            try sink.begin(format)
            try sink.write(frame: 0, frame, time: 0)
            try sink.finish()
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == expected, "\(container)")
        }
    }
}
