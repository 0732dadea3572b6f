import Foundation
import FlipbookGraphics

/// How a text layer shortens a line that does not fit (Apple's `CATextLayerTruncationMode`).
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Lines are not shortened (they run past the bounds and are clipped). The default.
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    /// "…" replaces the start of the line.
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    /// "…" replaces the end of the line.
    public static let end = CATextLayerTruncationMode(rawValue: "end")
    /// "…" replaces the middle of the line.
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
}

/// How a text layer aligns its lines (Apple's `CATextLayerAlignmentMode`).
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Left for left-to-right paragraphs, right for right-to-left ones. The default.
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    /// Wrapped lines are stretched to both edges by widening their spaces; a paragraph's last
    /// line is aligned naturally.
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

/// A layer that draws text (Apple's `CATextLayer`), shaped with HarfBuzz and drawn by
/// Flipbook's own rasterizer from FreeType outlines, so the same text is the same pixels on
/// every machine (docs/text.md).
///
/// **Drawing.** The layer draws its text into its backing store as any layer that draws
/// itself (`draw(in:)` at `contentsScale`), top-aligned in `bounds`: the first line's top is
/// the bounds' top, lines follow downward. Changing any text property redisplays the layer;
/// so does a change of `bounds` (`needsDisplayOnBoundsChange` is true for text layers — chosen:
/// wrapping depends on the width). A new string therefore cross-fades in on a live layer, as
/// on Apple (set `actions = ["contents": NSNull()]` to switch at once).
///
/// **`string`**: a `String` (or `NSString`), drawn with `font`, `fontSize` and
/// `foregroundColor`; or an `NSAttributedString`, whose `.font` (a ``CTFont``, a `CGFont` or a
/// font name), `.foregroundColor` (a `CGColor`) and `.kern` (a number, points after each
/// character) attributes override them per range.
///
/// **`font`**: a font name (`String`), a `CGFont` or a ``CTFont`` (whose size is ignored, as on
/// Apple); nil means the default. Flipbook's default is DejaVu Sans, compiled in (Apple's is
/// Helvetica). A name that no bundled or installed font has falls back to the default, with
/// one line on standard error naming the font — never a silent substitution.
///
/// **Animatable**: `fontSize` and `foregroundColor`, implicitly and explicitly (the
/// presentation copy redraws at every frame of the animation).
///
/// **Wrapping and truncation.** `isWrapped` false: one line per paragraph. True: lines break
/// to fit `bounds.width`. `truncationMode` other than `.none` shortens an unwrapped line wider
/// than the bounds with "…" at its start, middle or end; for wrapped text that is taller than
/// the bounds, the last line that fits ends in "…" (whatever the mode — chosen where Apple's
/// documentation is silent).
///
/// **`allowsFontSubpixelQuantization`** (default false, as Apple's header says): glyph origins
/// are rounded to the rasterizer's own grid, the nearest 1/256 px (docs/text.md, "Drawing").
/// True allows Apple's "quantize the subpixel positions of glyphs": origins are rounded to the
/// nearest quarter pixel at every size (chosen; Apple does not publish its grid).
open class CATextLayer: CALayer {
    /// Presentation copies of this class and of your subclasses of it (see `CALayer.init(layer:)`).
    override package class func _makePresentationCopy(of model: CALayer) -> CALayer { CATextLayer(layer: model) }

    static let _textKeys: Set<String> = ["string", "font", "fontSize", "foregroundColor", "wrapped", "truncationMode",
                                         "alignmentMode", "allowsFontSubpixelQuantization"]
    package static let _textImplicitlyAnimatableKeys: Set<String> = ["fontSize", "foregroundColor"]

    public override init() {
        super.init()
        needsDisplayOnBoundsChange = true
    }

    public override init(layer: Any) {
        super.init(layer: layer)
    }

    public required init?(coder: NSCoder) { nil }

    private func _set(_ v: Any?, _ key: String) {
        setValue(v, forKey: key)
    }

    /// A text key set through KVC (a scene file's timeline, `setValue(_:forKeyPath:)`) redisplays
    /// the layer, as its property does.
    open override func setValue(_ value: Any?, forKey key: String) {
        super.setValue(value, forKey: key)
        if CATextLayer._textKeys.contains(key) { setNeedsDisplay() }
    }

    /// The text: a `String`, `NSString` or `NSAttributedString`. Default nil.
    open var string: Any? {
        get { value(forKey: "string") }
        // copied, as Apple's `copy` property: a later change to a mutable string is not seen
        set { _set((newValue as? NSAttributedString).map { $0.copy() } ?? newValue, "string") }
    }

    /// The font: a name (`"Helvetica-Bold" as CFTypeRef`, an `NSString`), a `CGFont` or a
    /// ``CTFont``; nil for the default (DejaVu Sans). Not animatable. Apple's type,
    /// `CFTypeRef?` (`AnyObject?`): a Swift `String` is written `"…" as CFTypeRef`, as on Apple.
    open var font: CFTypeRef? {
        get { value(forKey: "font") as CFTypeRef? }
        set { _set(newValue, "font") }
    }

    /// The size of plain text (and of attributed ranges without a font). Default 36. Animatable.
    open var fontSize: CGFloat {
        get { CATextLayer._number(value(forKey: "fontSize")) ?? 36 }
        set { _set(newValue, "fontSize") }
    }

    /// The colour of plain text. Default opaque white. Animatable.
    open var foregroundColor: CGColor? {
        get { value(forKey: "foregroundColor") as? CGColor }
        set { _set(newValue, "foregroundColor") }
    }

    /// Whether lines wrap to the bounds' width. Default false. KVC key `wrapped`.
    open var isWrapped: Bool {
        get { (value(forKey: "wrapped") as? Bool) ?? false }
        set { _set(newValue, "wrapped") }
    }

    /// How a line that does not fit is shortened. Default `.none`.
    open var truncationMode: CATextLayerTruncationMode {
        get { (value(forKey: "truncationMode") as? CATextLayerTruncationMode) ?? .none }
        set { _set(newValue, "truncationMode") }
    }

    /// How lines are aligned. Default `.natural`.
    open var alignmentMode: CATextLayerAlignmentMode {
        get { (value(forKey: "alignmentMode") as? CATextLayerAlignmentMode) ?? .natural }
        set { _set(newValue, "alignmentMode") }
    }

    /// Whether glyph origins may be quantized to a coarser subpixel grid: the nearest quarter
    /// pixel (see the type's documentation). Default false (CATextLayer.h: "Defaults to NO").
    /// Changing it redisplays the layer.
    open var allowsFontSubpixelQuantization: Bool {
        get { (value(forKey: "allowsFontSubpixelQuantization") as? Bool) ?? false }
        set { setValue(newValue, forKey: "allowsFontSubpixelQuantization") }
    }

    /// A number stored by KVC (a scene file or an animation may store `Double`, `Float`, `Int`
    /// or `NSNumber` where the property is `CGFloat`).
    static func _number(_ v: Any?) -> CGFloat? {
        _KVCCoercion.double(v).map { CGFloat($0) }
    }

    /// Apple's defaults for the text keys (CATextLayer.h), then `CALayer`'s: `string` nil,
    /// `font` nil (Apple documents Helvetica; nil here means Flipbook's default face, DejaVu
    /// Sans — a name no bundled font has would fall back to it anyway), `fontSize` 36,
    /// `foregroundColor` opaque white, `wrapped` false, `truncationMode` `none`, `alignmentMode`
    /// `natural`, `allowsFontSubpixelQuantization` false.
    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "string", "font": return nil
        case "fontSize": return CGFloat(36)
        case "foregroundColor": return CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        case "wrapped": return false
        case "truncationMode": return CATextLayerTruncationMode.none
        case "alignmentMode": return CATextLayerAlignmentMode.natural
        case "allowsFontSubpixelQuantization": return false
        default: return super.defaultValue(forKey: key)
        }
    }

    open override class func needsDisplay(forKey key: String) -> Bool {
        _textKeys.contains(key) || super.needsDisplay(forKey: key)
    }

    /// Draws the text (see the type's documentation). A subclass that overrides `draw(in:)`
    /// and calls `super` draws the text there.
    open override func draw(in ctx: CGContext) {
        super.draw(in: ctx)
        guard let layout = _layout() else { return }
        ctx._drawText(layout, at: bounds.origin, defaultColor: foregroundColor ?? CGColor(red: 0, green: 0, blue: 0, alpha: 0),
                      quantized: allowsFontSubpixelQuantization)
    }

    /// The text laid out in the bounds (nil: no text). Package for tests.
    package func _layout() -> TextLayout? {
        guard let s = string else { return nil }
        let baseFont = CATextLayer._resolveFont(font) ?? CGFont.bundledDefault
        let size = Double(fontSize)
        let base = TextStyle(font: baseFont, size: size.isFinite ? max(0, size) : 0, color: foregroundColor)
        // The last layout is kept while its inputs are unchanged (a layer redisplayed with the
        // same text — a re-render, a bounds change of height only under no wrapping… — only draws).
        let key = _TextLayoutKey(string: s, font: baseFont, size: base.size, color: foregroundColor, wrapped: isWrapped,
                                 truncation: truncationMode, alignment: alignmentMode, size2: bounds.size)
        if let c = _layoutCache, c.key == key { return c.layout }
        let layout = _makeLayout(s, base: base)
        _layoutCache = (key, layout)
        return layout
    }

    /// The last layout and what it was made from (not copied to presentation copies).
    private var _layoutCache: (key: _TextLayoutKey, layout: TextLayout)?

    private func _makeLayout(_ s: Any, base: TextStyle) -> TextLayout {
        var scalars: [UInt32] = []
        var styleOf: [Int] = []
        var styles: [TextStyle] = [base]
        if let attr = s as? NSAttributedString {
            let text = attr.string
            let ns = text as NSString
            attr.enumerateAttributes(in: NSRange(location: 0, length: attr.length)) { attrs, range, _ in
                var st = base
                for (k, v) in attrs {
                    switch k.rawValue {
                    case "NSFont":
                        if let f = v as? CTFont { st.font = f.graphicsFont; st.size = Double(f.pointSize) }
                        else if let f = CATextLayer._resolveFont(v) { st.font = f }
                    case "NSColor", "CTForegroundColor":
                        if let c = v as? CGColor { st.color = c }
                    case "NSKern", "CTKern":
                        if let k = TextStyle.kernValue(v) { st.kern = k }
                    default: break
                    }
                }
                let idx: Int
                if let j = styles.firstIndex(of: st) { idx = j } else { styles.append(st); idx = styles.count - 1 }
                let piece = ns.substring(with: range)
                for u in piece.unicodeScalars { scalars.append(u.value); styleOf.append(idx) }
            }
        } else {
            let text = (s as? String) ?? (s as? NSString).map { $0 as String } ?? String(describing: s)
            for u in text.unicodeScalars { scalars.append(u.value); styleOf.append(0) }
        }
        let trunc: TextTruncation = switch truncationMode {
        case .start: .start
        case .middle: .middle
        case .end: .end
        default: .none
        }
        let align: TextAlignment = switch alignmentMode {
        case .left: .left
        case .right: .right
        case .center: .center
        case .justified: .justified
        default: .natural
        }
        let result = TextLayout(scalars: scalars, styleOf: styleOf, styles: styles, width: Double(bounds.width),
                          height: Double(bounds.height), wrapped: isWrapped, truncation: trunc, alignment: align)
        return result
    }

    /// A `font` value as a `CGFont`: a name (bundled or installed), a `CGFont`, a `CTFont`;
    /// nil for nil. An unknown name is reported once on standard error and gives nil (the
    /// default is used).
    package static func _resolveFont(_ v: Any?) -> CGFont? {
        switch v {
        case nil: return nil
        case let f as CGFont: return f
        case let f as CTFont: return f.graphicsFont
        case let s as String: return _named(s)
        case let s as NSString: return _named(s as String)
        default: return nil
        }
    }

    static func _named(_ name: String) -> CGFont? {
        CGFont._named(name)
    }
}

/// What a text layout is made from: a plain string by value, an attributed string by equality
/// (and identity first), the font by identity, every number and mode.
struct _TextLayoutKey: Equatable {
    let string: Any
    let font: CGFont
    let size: Double
    let color: CGColor?
    let wrapped: Bool
    let truncation: CATextLayerTruncationMode
    let alignment: CATextLayerAlignmentMode
    let size2: CGSize

    static func == (a: _TextLayoutKey, b: _TextLayoutKey) -> Bool {
        guard a.font === b.font, a.size == b.size, a.wrapped == b.wrapped, a.truncation == b.truncation,
              a.alignment == b.alignment, a.size2 == b.size2 else { return false }
        if a.color !== b.color {
            guard let x = a.color, let y = b.color, x.red == y.red, x.green == y.green, x.blue == y.blue, x.alpha == y.alpha
            else { return false }
        }
        switch (a.string, b.string) {
        case let (x as String, y as String): return x == y
        case let (x as NSAttributedString, y as NSAttributedString): return x === y || x.isEqual(to: y)
        case let (x as NSString, y as NSString): return x.isEqual(to: y as String)
        default: return false
        }
    }
}
