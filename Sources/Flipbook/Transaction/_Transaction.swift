import Foundation
/// One level of a run loop's transaction stack.
///
/// Invariants: `values` holds only what was set at this level (lookups walk outwards, so nested
/// transactions inherit); `pending` holds stored animation copies added while this level was the
/// innermost and not yet committed (a nested commit hands them to its parent; the outermost
/// commit schedules them).
final class _Transaction {
    /// True for the transaction opened automatically by a change outside `begin`/`commit`.
    let isImplicit: Bool
    /// Values set at this level (`kCATransaction…` keys and custom keys).
    var values: [String: Any] = [:]
    /// The group that animations added from now on join (set by `setCompletionBlock`).
    var currentGroup: _CompletionGroup?
    /// Every group created at this level or handed up by nested commits.
    var groups: [_CompletionGroup] = []
    /// Stored copies added under this level, not yet committed.
    var pending: [CAAnimation] = []
    /// `CATransaction.flush()` was called while explicit transactions were nested inside.
    var flushRequested = false

    init(isImplicit: Bool) { self.isImplicit = isImplicit }
}

/// A completion block and the animations it waits for.
///
/// It fires (as a run-loop event at the current media time) once it is `sealed` — the
/// outermost transaction containing it committed — and `count` is 0.
final class _CompletionGroup {
    var block: (() -> Void)?
    /// Animations added to the group that have not finished or been removed.
    var count = 0
    /// Whether any animation ever joined (a later `setCompletionBlock` then starts a new group).
    var everUsed = false
    var sealed = false
    var fired = false

    init(block: (() -> Void)?) { self.block = block }
}
