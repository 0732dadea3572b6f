import Foundation
/// The key of the transaction's default animation duration (a `CFTimeInterval`).
public let kCATransactionAnimationDuration = "animationDuration"
/// The key of the flag that suppresses running actions (a `Bool`).
public let kCATransactionDisableActions = "disableActions"
/// The key of the transaction's default timing function (a `CAMediaTimingFunction`).
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// The key of the transaction's completion block (`() -> Void`).
public let kCATransactionCompletionBlock = "completionBlock"

/// Batches layer-tree changes into atomic updates (Apple's `CATransaction`).
///
/// All methods act on the transaction stack of ``VirtualRunLoop/current`` — the current task's run
/// loop if one is bound with `VirtualRunLoop.run(_:)`, else the current thread's — so
/// transactions are per thread (and per bound run loop), as on Apple.
///
/// - A layer change outside `begin`/`commit` opens an *implicit* transaction at the bottom of
///   the stack; ``VirtualRunLoop/endTurn()`` commits it. Setting a value (duration, completion
///   block, any key) outside `begin` also opens it, as on Apple.
/// - Nested transactions inherit the enclosing values (Apple's behaviour; one of the source
///   posts claims otherwise). Outside any transaction: 0.25 s, actions enabled, no timing function.
/// - Only the outermost commit makes changes effective: it resolves begin times of the
///   animations added under it and schedules their notifications.
/// - `commit`, `flush`, `lock`, `unlock` with nothing to act on do nothing.
open class CATransaction: NSObject {
    /// The default duration outside any transaction.
    package static let _defaultAnimationDuration: CFTimeInterval = 0.25

    /// Opens a new (nested) transaction on the current thread's run loop.
    open class func begin() { VirtualRunLoop.current._begin() }

    /// Commits the innermost explicit transaction. With none open, does nothing.
    open class func commit() { VirtualRunLoop.current._commitExplicit() }

    /// Commits the implicit transaction now; with explicit transactions still open, it commits
    /// as soon as they have all committed.
    open class func flush() { VirtualRunLoop.current._flush() }

    /// Takes the run loop's recursive lock (for changing a tree from several threads).
    open class func lock() { VirtualRunLoop.current._lockTree() }

    /// Releases the lock taken by ``lock()``; without a matching `lock`, does nothing.
    open class func unlock() { VirtualRunLoop.current._unlockTree() }

    open class func animationDuration() -> CFTimeInterval { VirtualRunLoop.current._animationDuration }
    open class func setAnimationDuration(_ dur: CFTimeInterval) { setValue(dur, forKey: kCATransactionAnimationDuration) }

    open class func animationTimingFunction() -> CAMediaTimingFunction? { VirtualRunLoop.current._animationTimingFunction }
    open class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: kCATransactionAnimationTimingFunction)
    }

    open class func disableActions() -> Bool { VirtualRunLoop.current._disableActions }
    open class func setDisableActions(_ flag: Bool) { setValue(flag, forKey: kCATransactionDisableActions) }

    /// The innermost transaction's completion block (not inherited).
    open class func completionBlock() -> (() -> Void)? { VirtualRunLoop.current._stack.last?.currentGroup?.block }

    /// Sets the block run once every animation added *from now on* in this transaction (and
    /// transactions nested in it) has finished or been removed — at the end of the commit's
    /// run-loop turn if none was added. Changes made inside the block form a new transaction.
    open class func setCompletionBlock(_ block: (() -> Void)?) { VirtualRunLoop.current._setCompletionBlock(block) }

    /// The value for `key` in the innermost transaction that set it, else the default
    /// (for the four `kCATransaction…` keys) or nil.
    open class func value(forKey key: String) -> Any? { VirtualRunLoop.current._transactionValue(forKey: key) }

    /// Sets `key` in the innermost transaction (opening the implicit one if none is open).
    /// The `kCATransaction…` keys accept what their typed setters take (numbers are coerced;
    /// a value of the wrong type is ignored). Nil removes a custom value.
    open class func setValue(_ anObject: Any?, forKey key: String) {
        VirtualRunLoop.current._setTransactionValue(anObject, forKey: key)
    }
}
