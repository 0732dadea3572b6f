import ArgumentParser
import Foundation
import FlipbookPixels
import FlipbookScene

/// `flipbook bundle SCENE -o scene.fbk`: the scene and every image and font file it reads in
/// one content-addressed file (``SceneBundle``) that `render`, `plan` and `verify` read
/// directly — what a job array ships to its workers instead of a folder.
///
/// The bundle's scene hash is the scene's (`flipbook plan` prints the same for both).
/// Exit codes: 0, 1 invalid scene (or an absolute image path), 2 usage, 3 output failed.
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Pack a scene and every file it reads into one file that render reads directly.",
        discussion: """
          flipbook bundle scene.json -o scene.fbk
          flipbook render scene.fbk -o out --shard auto --shards 8 --resume
        Exit codes: 0 ok, 1 invalid scene, 2 usage, 3 output failed.
        """
    )

    @Argument(help: "The scene file (.json) or Lottie file (JSON, with the images it reads beside it; or .lottie).")
    var scene: String

    @Option(name: .shortAndLong, help: "The bundle to write (.fbk).")
    var output: String

    func run() throws {
        switch execute() {
        case .failure(let f): throw f.report()
        case .success(let line): StandardStreams.write(line, to: 2)
        }
    }

    /// Writes the bundle; the summary line, or the failure. No printing.
    func execute() -> Result<String, CLIFailure> {
        guard RenderFormat.fileExtension(of: output) == "fbk" else {
            return .failure(CLIFailure(message: "bundle: -o \(output): the bundle's name must end in .fbk", exitCode: 2))
        }
        if SceneBundle.isBundle(scene) { return .failure(CLIFailure(message: "bundle: \(scene) is already a bundle", exitCode: 2)) }
        do {
            let input = try SceneInput.parse(path: scene, displayName: scene, kind: InputKind.of(path: scene))
            try input.checkImages()
            let hash = try input.hash(background: nil)
            let index = try SceneBundle.write(scenePath: scene, input: input, hash: hash, to: output)
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.intValue ?? 0
            return .success("bundled \(scene) and \(index.files.count) file\(index.files.count == 1 ? "" : "s") (\(index.blobs.count) distinct contents, "
                            + "\(RenderSession.bytes(size))) → \(output); scene hash \(hash.hex)\n")
        } catch let e as SceneError {
            return .failure(CLIFailure(message: e.description, exitCode: 1))
        } catch let f as CLIFailure {
            return .failure(f)
        } catch {
            return .failure(CLIFailure(message: "\(error)", exitCode: 1))
        }
    }
}
