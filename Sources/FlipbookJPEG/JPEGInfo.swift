/// What a JPEG's header says, without decoding the image (``JPEG/info(_:)``).
public struct JPEGInfo: Sendable, Hashable {
    /// The colour model of the compressed samples (the SOF components and the Adobe marker).
    public enum ColorSpace: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// One component: decoded to R = G = B.
        case gray
        /// Y, Cb, Cr: the usual JPEG, decoded to RGB.
        case yCbCr = "YCbCr"
        /// R, G, B stored as they are (no colour transform).
        case rgb = "RGB"
        /// Four components, inks (refused by ``JPEG/decode(_:)``).
        case cmyk = "CMYK"
        /// CMYK with Y, Cb, Cr in place of C, M, Y (Adobe's transform; refused by ``JPEG/decode(_:)``).
        case ycck = "YCCK"

        /// The name `flipbook info` prints.
        public var description: String { rawValue }
    }

    public var width: Int
    public var height: Int
    public var colorSpace: ColorSpace
    /// The chroma subsampling, as `4:2:0`-style text (`4:4:4`, `4:2:2`, `4:2:0`, `4:4:0`,
    /// `4:1:1`, `4:4:1`), `gray` for one component, nil for a layout TurboJPEG has no name for.
    public var subsampling: String?
    /// Progressive coding (SOF2 or SOF10): the image arrives in several scans.
    public var isProgressive: Bool
    /// Arithmetic entropy coding (SOF9 or SOF10) instead of Huffman.
    public var isArithmeticCoded: Bool

    public init(width: Int, height: Int, colorSpace: ColorSpace, subsampling: String?,
                isProgressive: Bool, isArithmeticCoded: Bool) {
        self.width = width
        self.height = height
        self.colorSpace = colorSpace
        self.subsampling = subsampling
        self.isProgressive = isProgressive
        self.isArithmeticCoded = isArithmeticCoded
    }
}
