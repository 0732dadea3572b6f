import Foundation
import FlipbookScene

/// What an input file is, told by its **content**, never its name (`anim.txt` holding Lottie
/// JSON is a Lottie file; a `.bin` that is a zip with a `manifest.json` is a dotLottie):
///
/// 1. `FBKBUNDL` at the start: a scene bundle (``SceneBundle``);
/// 2. a zip archive (`PK\u{3}\u{4}`): a dotLottie file (its `manifest.json` and `animations/`
///    are checked when it is read; a zip without them is an error naming what is missing);
/// 3. a JSON object with Lottie's root keys (`v`, `ip`, `op`, `layers`, `w`, `h`, `fr`): Bodymovin
///    JSON. A scene file's top level has only `output`, `root`, `layers` and `timeline`, so an
///    object without `output` that has any of `v`, `ip`, `op`, `fr` is taken for a Lottie
///    document — a broken one then gets the Lottie parser's message (`missing required key
///    "op"`), not a scene's (`unknown key "v"`);
/// 4. anything else: a scene file, as before (a scene file's errors name what is wrong,
///    including JSON syntax errors, which read the same in both formats).
enum InputKind: Equatable, Sendable {
    case bundle
    case dotLottie
    case lottieJSON
    case scene

    var isLottie: Bool { self == .dotLottie || self == .lottieJSON }

    static let zipMagic: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    /// The kind of the file at `path`; an unreadable file is `.scene` (whose parser then says
    /// what is wrong with it).
    static func of(path: String) -> InputKind {
        guard let h = FileHandle(forReadingAtPath: path) else { return .scene }
        defer { try? h.close() }
        let head = (try? h.read(upToCount: 8)).map(Array.init) ?? []
        if head == SceneBundle.magic { return .bundle }
        if head.starts(with: zipMagic) { return .dotLottie }
        // Only JSON objects can be Lottie documents; skip the read for anything else.
        guard let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }), first == UInt8(ascii: "{") else {
            return .scene
        }
        guard let data = FileManager.default.contents(atPath: path) else { return .scene }
        return isLottieJSON(Array(data)) ? .lottieJSON : .scene
    }

    /// Whether `bytes` parse as a JSON object with Lottie's root keys (see the type).
    static func isLottieJSON(_ bytes: [UInt8]) -> Bool {
        guard let json = try? SceneJSONParser.parse(bytes), case let .object(members) = json.value else { return false }
        let keys = Set(members.map(\.key))
        return !keys.contains("output") && !keys.isDisjoint(with: ["v", "ip", "op", "fr"])
    }
}
