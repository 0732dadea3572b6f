import FlipbookPNG
import FlipbookPixels

/// How snapshots read and write images. ``png`` is the real one; tests of the verifier may
/// substitute an in-memory store.
public struct SnapshotImageIO: Sendable {
    /// Reads the image at a path.
    public var read: @Sendable (String) throws(SnapshotError) -> PixelBuffer
    /// Writes `image` to `path`, creating folders as needed; `isReference` picks the encoding.
    public var write: @Sendable (_ image: PixelBuffer, _ path: String, _ isReference: Bool) throws(SnapshotError) -> Void
    /// Whether a file exists at a path.
    public var exists: @Sendable (String) -> Bool

    public init(read: @escaping @Sendable (String) throws(SnapshotError) -> PixelBuffer,
                write: @escaping @Sendable (PixelBuffer, String, Bool) throws(SnapshotError) -> Void,
                exists: @escaping @Sendable (String) -> Bool) {
        self.read = read; self.write = write; self.exists = exists
    }

    /// PNG files through `FlipbookPNG`. References are encoded with ``PNGEncodeOptions/small``
    /// (they live in git), failure artifacts with ``PNGEncodeOptions/fast``; every write is
    /// atomic, so parallel tests never see half a file.
    public static let png = SnapshotImageIO(
        read: { (path: String) throws(SnapshotError) -> PixelBuffer in
            do { return try PNG.decode(contentsOf: path) } catch { throw .png("cannot read \(error)") }
        },
        write: { (image: PixelBuffer, path: String, isReference: Bool) throws(SnapshotError) in
            try SnapshotFileSystem.makeDirectories(SnapshotFileSystem.directory(of: path))
            do { try PNG.write(image, to: path, options: isReference ? .small : .fast) } catch {
                throw .png("cannot write \(error)")
            }
        },
        exists: { SnapshotFileSystem.kind(of: $0) != .missing }
    )
}
