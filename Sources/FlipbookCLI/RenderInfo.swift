import FlipbookRender
import FlipbookScene

/// `flipbook info SCENE.json`: the scene's ``SceneSummary`` (size, duration, frames, layers,
/// images) without rendering. Called from `InfoCommand` for `.json` files.
enum SceneInfo {
    /// The report lines, or the scene error (exit code 1). Images are decoded too, so `info`
    /// fails exactly when `render` would on its inputs.
    static func report(path: String) -> Result<[String], CLIFailure> {
        do {
            let scene = try SceneParser.parse(contentsOf: path)
            _ = try SceneBuilder.loadImages(scene, file: path)
            return .success(["file: \(path)", "format: scene"] + SceneSummary(scene).description.split(separator: "\n").map(String.init))
        } catch {
            return .failure(CLIFailure(message: error.description))
        }
    }
}
