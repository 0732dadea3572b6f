import Foundation

/// Core Graphics values boxed in `NSValue`, with Apple's spellings (UIKit's `NSValue`
/// additions on iOS, Foundation's on macOS): `NSValue(cgPoint:)`, `.cgPointValue`,
/// `NSValue(cgSize:)`, `NSValue(cgRect:)`, `NSValue(cgAffineTransform:)` and their readers.
///
/// Layer code boxes animation values this way (`anim.values = [NSValue(cgPoint: a),
/// NSValue(cgPoint: b)]`, often built in an `NSMutableArray`); Flipbook's animations and KVC
/// unbox them to the struct (`_AnimValue`, `_KVCCoercion`), so they animate exactly as the
/// plain struct would.
///
/// Storage: points, sizes and rects are Foundation's own `NSValue(point:)`, `(size:)`,
/// `(rect:)` boxes (`CGPoint` *is* `NSPoint` on Linux), so `NSValue(cgPoint: p) ==
/// NSValue(point: p)` as on macOS. An affine transform is six `Double`s, Objective-C type
/// `"[6d]"` (Foundation on Linux cannot box a struct type encoding). Reading a box of another
/// type gives the zero value, as Apple's readers do for a mismatched box.
extension NSValue {
    /// A box holding `point` (Apple's `NSValue(cgPoint:)`).
    public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
    /// A box holding `size` (Apple's `NSValue(cgSize:)`).
    public convenience init(cgSize size: CGSize) { self.init(size: size) }
    /// A box holding `rect` (Apple's `NSValue(cgRect:)`).
    public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }
    /// A box holding `transform` (Apple's `NSValue(cgAffineTransform:)`): six doubles `a b c d tx ty`.
    public convenience init(cgAffineTransform transform: CGAffineTransform) {
        let m: [Double] = [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty].map { Double($0) }
        self.init(_doubles: m)
    }

    /// The boxed point (`.zero` for a box of another type).
    public var cgPointValue: CGPoint { _objCTypeString == NSValue._pointType ? pointValue : .zero }
    /// The boxed size (`.zero` for a box of another type).
    public var cgSizeValue: CGSize { _objCTypeString == NSValue._sizeType ? sizeValue : .zero }
    /// The boxed rectangle (`.zero` for a box of another type).
    public var cgRectValue: CGRect { _objCTypeString == NSValue._rectType ? rectValue : .zero }
    /// The boxed affine transform (all zeros for a box of another type, as Apple's reader).
    public var cgAffineTransformValue: CGAffineTransform {
        guard let m = _doubles(6) else { return CGAffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0) }
        return CGAffineTransform(a: m[0], b: m[1], c: m[2], d: m[3], tx: m[4], ty: m[5])
    }

    // MARK: Shared by the QuartzCore additions (CATransform3D: sixteen doubles)

    package static let _pointType = String(cString: NSValue(point: .zero).objCType)
    package static let _sizeType = String(cString: NSValue(size: .zero).objCType)
    package static let _rectType = String(cString: NSValue(rect: .zero).objCType)
    package static let _affineType = "[6d]"

    package var _objCTypeString: String { String(cString: objCType) }

    /// A box of `values.count` doubles (Objective-C type `"[nd]"`).
    package convenience init(_doubles values: [Double]) {
        let type = "[\(values.count)d]"
        self.init(bytes: values.withUnsafeBytes { $0.baseAddress! }, objCType: type)
    }

    /// The `n` doubles of a `"[nd]"` box; nil for a box of another type.
    package func _doubles(_ n: Int) -> [Double]? {
        guard !(self is NSNumber), _objCTypeString == "[\(n)d]" else { return nil }
        var out = [Double](repeating: 0, count: n)
        out.withUnsafeMutableBytes { getValue($0.baseAddress!) }
        return out
    }

    /// The Core Graphics value in the box — `CGPoint`, `CGSize`, `CGRect` or
    /// `CGAffineTransform` — or nil for any other box (numbers included).
    package var _coreGraphicsValue: Any? {
        if self is NSNumber { return nil }
        switch _objCTypeString {
        case NSValue._pointType: return pointValue
        case NSValue._sizeType: return sizeValue
        case NSValue._rectType: return rectValue
        case NSValue._affineType: return cgAffineTransformValue
        default: return nil
        }
    }
}
