import Foundation
import FlipbookJPEG
import FlipbookPNG
import FlipbookRender
import FlipbookScene

/// `flipbook info FILE --json`: the same facts as the `key: value` report, as one JSON object
/// on one line (keys sorted), for scripts. Shapes:
///
///     {"alpha":"channel","bitDepth":8,"colorType":"RGBA","file":"a.png","format":"png",
///      "height":2,"interlaced":false,"text":{"Software":"Flipbook"},"width":3}
///     {"alpha":"none","arithmetic":false,"colorSpace":"YCbCr","file":"a.jpg","format":"jpeg",
///      "height":23,"progressive":false,"subsampling":"4:2:0","width":37}
///     {"animations":2,"duration":2,"events":3,"file":"s.json","format":"scene","fps":30,
///      "frameCount":60,"frames":[0,59],"height":360,"images":["/abs/logo.png"],"layers":5,
///      "outputFormat":"png","pixelHeight":720,"pixelWidth":1280,"scale":2,"width":640}
///
/// A Lottie file (`format` `lottie` or `dotlottie`) gives its composition, contents and
/// features (``LottieInfo/Facts``):
///
///     {"duration":5.9666,"features":[{"count":40,"exact":true,"name":"trim path","path":"layers[0].shapes[0].it[2]","warnings":[]},…],
///      "file":"logo.json","fonts":[],"format":"lottie","fps":30,"frameCount":179,"glyphs":0,"height":667,"images":[],
///      "ip":0,"layerCount":48,"layers":{"shape":45,"solid":3},"markers":[],"op":179,"precompositions":[],
///      "version":"4.4.26","warnings":[],"width":375}
///
/// `alpha` is `channel`, `tRNS` or `none` (always `none` for a JPEG); `colorSpace` is `gray`,
/// `YCbCr` or `RGB`; `subsampling` is absent for a layout without a name; `outputFormat` is
/// absent when the scene names none.
enum InfoJSON {
    static func report(path: String) -> Result<String, CLIFailure> {
        switch InfoCommand.Input(path: path) {
        case .image:
            switch InfoCommand.validateImage(path: path) {
            case .success(.png(let info)):
                let alpha: String
                switch (info.colorType, info.hasAlpha) {
                case (.rgba, _), (.grayAlpha, _): alpha = "channel"
                case (_, true): alpha = "tRNS"
                default: alpha = "none"
                }
                var text: [String: String] = [:]
                for chunk in info.text { text[chunk.keyword] = chunk.text }
                return encode(PNGFacts(file: path, format: "png", width: info.width, height: info.height,
                                       colorType: "\(info.colorType)", bitDepth: info.bitDepth,
                                       interlaced: info.isInterlaced, alpha: alpha, text: text))
            case .success(.jpeg(let info)):
                return encode(JPEGFacts(file: path, format: "jpeg", width: info.width, height: info.height,
                                        colorSpace: info.colorSpace.rawValue, subsampling: info.subsampling,
                                        progressive: info.isProgressive, arithmetic: info.isArithmeticCoded, alpha: "none"))
            case .failure(let failure):
                return .failure(failure)
            }
        case .scene:
            do {
                let scene = try SceneParser.parse(contentsOf: path)
                _ = try SceneBuilder.loadImages(scene, file: path)
                let s = SceneSummary(scene)
                return encode(SceneFacts(file: path, format: "scene", width: s.width, height: s.height, scale: s.scale,
                                         pixelWidth: s.pixelWidth, pixelHeight: s.pixelHeight, fps: s.fps, duration: s.duration,
                                         frames: [s.frames.lowerBound, s.frames.upperBound], frameCount: s.frameCount,
                                         layers: s.layerCount, animations: s.animationCount, events: s.eventCount,
                                         images: s.images, outputFormat: s.format?.rawValue))
            } catch {
                return .failure(CLIFailure(message: error.description))
            }
        case .lottie:
            return LottieInfo.report(path: path).flatMap { encode(LottieInfo.facts($0)) }
        }
    }

    private struct PNGFacts: Encodable {
        var file: String, format: String, width: Int, height: Int, colorType: String, bitDepth: Int
        var interlaced: Bool, alpha: String, text: [String: String]
    }

    private struct JPEGFacts: Encodable {
        var file: String, format: String, width: Int, height: Int, colorSpace: String, subsampling: String?
        var progressive: Bool, arithmetic: Bool, alpha: String
    }

    private struct SceneFacts: Encodable {
        var file: String, format: String, width: Double, height: Double, scale: Double
        var pixelWidth: Int, pixelHeight: Int, fps: Double, duration: Double, frames: [Int], frameCount: Int
        var layers: Int, animations: Int, events: Int, images: [String], outputFormat: String?
    }

    static func encode<T: Encodable>(_ value: T) -> Result<String, CLIFailure> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return .failure(CLIFailure(message: "cannot encode the report as JSON")) }
        return .success(String(decoding: data, as: UTF8.self))
    }
}
