/// A timeline event: at ``time`` (seconds, the recording's clock), run ``transaction``.
///
/// The recorder runs every event whose time is ≤ the frame's time before committing that
/// frame's run-loop turn, in timeline order.
public struct EventDescription: Sendable, Equatable {
    public var time: Double
    public var transaction: TransactionDescription

    public init(time: Double, transaction: TransactionDescription) {
        self.time = time; self.transaction = transaction
    }
}

/// A `CATransaction.begin() … commit()` block from a scene file.
///
/// `nil` settings are not set (the transaction inherits: 0.25 s, default timing, actions on).
/// ``steps`` run in order inside the transaction; ``completion`` (if any) becomes the
/// transaction's completion block and runs as its own transaction.
public struct TransactionDescription: Sendable, Equatable {
    public var duration: Double?
    public var timingFunction: TimingFunctionDescription?
    public var disableActions: Bool?
    public var steps: [StepDescription] = []
    public var completion: Box<TransactionDescription>?

    public init() {}
}

/// One thing done inside a transaction.
public enum StepDescription: Sendable, Equatable {
    /// Set properties on the named layer, in order (each may trigger an implicit action).
    case set(layer: String, properties: [PropertyValue])
    /// Add a layer (a new one, described, or an existing one by name — e.g. re-adding a removed
    /// layer) to `parent` (`root` when the file names none), appended or inserted at `index`.
    case add(LayerAddition)
    /// `removeFromSuperlayer()` of the named layer.
    case remove(layer: String)
    /// `layer.add(animation, forKey: animation.key)`.
    case addAnimation(layer: String, animation: AnimationDescription)
    /// `removeAnimation(forKey:)`, or `removeAllAnimations()` when `key` is `nil`.
    case removeAnimation(layer: String, key: String?)
    /// A nested transaction.
    case transaction(TransactionDescription)
}

/// What an `add` step adds.
public struct LayerAddition: Sendable, Equatable {
    public enum Source: Sendable, Equatable {
        /// A new layer (its whole subtree).
        case new(LayerDescription)
        /// A layer declared elsewhere in the scene, by name.
        case existing(String)
    }
    public var source: Source
    /// The parent's name.
    public var parent: String
    /// Insert at this index among the parent's sublayers (`nil`: append).
    public var index: Int?
    /// The step's line in the scene file (for messages; not part of equality).
    public var line: Int?

    public init(source: Source, parent: String, index: Int? = nil, line: Int? = nil) {
        self.source = source; self.parent = parent; self.index = index; self.line = line
    }

    public static func == (a: LayerAddition, b: LayerAddition) -> Bool {
        a.source == b.source && a.parent == b.parent && a.index == b.index
    }
}
