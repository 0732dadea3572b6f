import Foundation

// MARK: Core Foundation spellings
//
// Apple's Core Graphics, Core Text and QuartzCore signatures take Core Foundation types, and
// real layer code writes them: `"Helvetica-Bold" as CFTypeRef`, `"Didot" as CFString`,
// `[c1, c2] as CFArray`, `url as CFURL`, `data as CFData`. On Apple each is toll-free bridged
// to the Foundation class of the same name, so these aliases name exactly those classes:
// the casts compile unchanged on Linux and produce the value they produce on Apple (an
// `NSString`, an `NSArray` of the colours, …). Swift's Foundation on Linux has no `CFString`
// and friends (its CoreFoundation is internal), so the names do not collide.
//
// What stays different (docs/porting.md): the `CF…Create…`/`CF…Get…` functions of Core
// Foundation itself are not provided — only the type names that Core Graphics and Core Text
// signatures use, `CFRange`/`CFRangeMake` and `CFIndex`.

/// Any Core Foundation object (Apple: `AnyObject`).
public typealias CFTypeRef = AnyObject
/// Apple's `CFString`, toll-free bridged to `NSString`.
public typealias CFString = NSString
/// Apple's `CFMutableString`, toll-free bridged to `NSMutableString`.
public typealias CFMutableString = NSMutableString
/// Apple's `CFArray`, toll-free bridged to `NSArray`.
public typealias CFArray = NSArray
/// Apple's `CFMutableArray`, toll-free bridged to `NSMutableArray`.
public typealias CFMutableArray = NSMutableArray
/// Apple's `CFDictionary`, toll-free bridged to `NSDictionary`.
public typealias CFDictionary = NSDictionary
/// Apple's `CFMutableDictionary`, toll-free bridged to `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// Apple's `CFData`, toll-free bridged to `NSData`.
public typealias CFData = NSData
/// Apple's `CFMutableData`, toll-free bridged to `NSMutableData`.
public typealias CFMutableData = NSMutableData
/// Apple's `CFURL`, toll-free bridged to `NSURL`.
public typealias CFURL = NSURL
/// Apple's `CFNumber`, toll-free bridged to `NSNumber`.
public typealias CFNumber = NSNumber
/// Apple's `CFAttributedString`, toll-free bridged to `NSAttributedString`.
public typealias CFAttributedString = NSAttributedString
/// Apple's `CFMutableAttributedString`, toll-free bridged to `NSMutableAttributedString`.
public typealias CFMutableAttributedString = NSMutableAttributedString
/// Apple's signed index type for Core Foundation (and Core Text) ranges and counts.
public typealias CFIndex = Int

/// A range of indices (Apple's `CFRange`): `length` items from `location`. Core Text uses it for
/// string ranges (a `length` of 0 in a `CTLine…`/`CTFramesetter…` call means "to the end").
public struct CFRange: Sendable, Hashable {
    public var location: CFIndex
    public var length: CFIndex
    public init() { location = 0; length = 0 }
    public init(location: CFIndex, length: CFIndex) { self.location = location; self.length = length }
}

/// Apple's `CFRangeMake(_:_:)`.
public func CFRangeMake(_ loc: CFIndex, _ len: CFIndex) -> CFRange { CFRange(location: loc, length: len) }
