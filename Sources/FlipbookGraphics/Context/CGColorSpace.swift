import Foundation

/// A colour space (Apple's `CGColorSpace`). Flipbook draws in sRGB only: every name that is
/// an RGB space resolves to the same sRGB space (documented in the CGContext article).
public final class CGColorSpace: Hashable, Sendable, CustomStringConvertible {
    /// Apple's name constants (`CGColorSpace.sRGB`, …): `CFString`s there, `String`s here.
    public static let sRGB = "kCGColorSpaceSRGB"
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    public static let linearGray = "kCGColorSpaceLinearGray"
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"

    /// The space's name (`nil` for the device space, as on Apple).
    public let name: String?
    /// The number of colour components (3 for RGB, 1 for gray).
    public let numberOfComponents: Int

    init(name: String?, numberOfComponents: Int) { self.name = name; self.numberOfComponents = numberOfComponents }

    /// The space called `name`; nil for a name Flipbook does not know.
    public convenience init?(name: String) {
        switch name {
        case CGColorSpace.sRGB, CGColorSpace.genericRGBLinear, CGColorSpace.displayP3: self.init(name: name, numberOfComponents: 3)
        case CGColorSpace.linearGray, CGColorSpace.genericGrayGamma2_2: self.init(name: name, numberOfComponents: 1)
        default: return nil
        }
    }

    public static func == (a: CGColorSpace, b: CGColorSpace) -> Bool { a.name == b.name && a.numberOfComponents == b.numberOfComponents }
    public func hash(into h: inout Hasher) { h.combine(name); h.combine(numberOfComponents) }
    public var description: String { "CGColorSpace(\(name ?? "DeviceRGB"))" }
}

/// The device RGB space (drawn as sRGB).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(name: nil, numberOfComponents: 3) }
/// The device gray space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(name: nil, numberOfComponents: 1) }
