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

    // Foundation's encodings of its point, size and rect boxes (what their `objCType` reads on
    // Linux; written out rather than read, as each read of `objCType` leaks its string — see
    // `_objCTypeString`; a test checks them against Foundation).
    package static let _pointType = "{CGPoint=dd}"
    package static let _sizeType = "{CGSize=dd}"
    package static let _rectType = "{CGRect={CGPoint=dd}{CGSize=dd}}"
    package static let _affineType = "[6d]"

    /// The box's Objective-C type encoding, e.g. `"[16d]"` or `"{CGPoint=dd}"`.
    ///
    /// Not read through `objCType` where it can be helped: swift-corelibs-foundation returns a
    /// C string there that it allocates on every call and never frees (`utf8String` without an
    /// autorelease pool) — a leak per read that LeakSanitizer found in the lottie fuzz target.
    /// Foundation's boxes show their type through reflection instead: a byte box its
    /// `_typeInfo.name`, a point, size or rect box its `_value`. Other boxes fall back to
    /// `objCType` (and leak its few bytes, as Foundation's own readers do).
    package var _objCTypeString: String { _objCTypeByReflection ?? String(cString: objCType) }

    /// The type encoding as reflection shows it (see ``_objCTypeString``); nil for boxes that
    /// do not show it.
    package var _objCTypeByReflection: String? {
        for child in Mirror(reflecting: self).children {
            switch child.label {
            case "_typeInfo":
                for field in Mirror(reflecting: child.value).children where field.label == "name" {
                    if let name = field.value as? String { return name }
                }
            case "_value":
                switch child.value {
                case is CGPoint: return NSValue._pointType
                case is CGSize: return NSValue._sizeType
                case is CGRect: return NSValue._rectType
                default: break
                }
            default: break
            }
        }
        return nil
    }

    /// A box of `values.count` doubles (Objective-C type `"[nd]"`).
    package convenience init(_doubles values: [Double]) {
        let type = "[\(values.count)d]"
        // NSValue copies the bytes during init, but the pointer must be valid for that call:
        // a pointer returned out of `withUnsafeBytes` is not (AddressSanitizer found a read of
        // freed memory here), and `self.init` cannot be called inside the closure.
        let bytes = UnsafeMutablePointer<Double>.allocate(capacity: max(values.count, 1))
        defer { bytes.deallocate() }
        bytes.initialize(from: values, count: values.count)
        self.init(bytes: bytes, objCType: type)
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
