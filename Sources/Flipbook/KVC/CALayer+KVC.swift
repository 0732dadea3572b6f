import Foundation
/// Key-value coding without Objective-C.
///
/// - Built-in keys (Apple's KVC names: `bounds`, `position`, `hidden`, `doubleSided`, …, and
///   `frame`, `mask`, `sublayers`, `superlayer`, `actions`, `style`) go through the typed
///   properties, so they coerce numbers and run the action search.
/// - Any other key is a custom key stored on the layer; setting it runs the action search like a
///   property (unless the value is equal to the current one); nil removes it. Reading an unset
///   custom key returns `type(of: self).defaultValue(forKey:)`.
/// - Key paths: `position.x`, `bounds.size.width`, `frame.origin.y`, `shadowOffset.height`,
///   `transform.rotation(.x/.y/.z)`, `transform.scale(.x/.y/.z/.xy)`,
///   `transform.translation(.x/.y/.z)`, `mask.opacity` (layer-valued keys recurse),
///   dictionary-valued custom keys (read only), and an emitter layer's
///   `emitterCells.<name>(.emitterCells.<name>)….<key>` (cells found by `name`; see
///   ``CAEmitterLayer``).
/// - Wrong types, nil for non-optional keys, unknown key-path components: the non-throwing
///   methods ignore the write and print the ``LayerKVCError`` on standard error; the
///   `_try…` methods throw it.
extension CALayer {
    package final func _value(forKey key: String) -> Any? {
        if let e = _LayerKeyTable.entries[_LayerKeyTable.canonical(key)] { return e.get(self) }
        if let e = _subclassKeyEntry(key) { return e.get(self) }  // CAShapeLayer's keys (CALayer+SubclassHooks.swift)
        return _extras[key] ?? _modelClass.defaultValue(forKey: key)
    }

    public func value(forKeyPath keyPath: String) -> Any? { try? _tryValue(forKeyPath: keyPath) }

    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        do { try _trySetValue(value, forKeyPath: keyPath) } catch { _KVCDiagnostics.report(error) }
    }

    /// `setValue(_:forKey:)` that throws instead of ignoring bad input.
    package func _trySetValue(_ value: Any?, forKey key: String) throws {
        if let e = _LayerKeyTable.entries[_LayerKeyTable.canonical(key)] { return try e.set(self, value) }
        if let e = _subclassKeyEntry(key) { return try e.set(self, value) }  // CAShapeLayer's keys
        let old = _extras[key]
        if _kvcEqual(old, value) { return }
        _change(key, old: old, new: value) { $0._extras[key] = value }
    }

    /// `value(forKeyPath:)` that throws on an unknown component.
    package func _tryValue(forKeyPath keyPath: String) throws -> Any? {
        // One component (most animated key paths): no splitting.
        if _isSingleKey(keyPath) { return value(forKey: keyPath) }
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty else {
            throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: "")
        }
        let top = value(forKey: String(first))
        let rest = parts.dropFirst()
        if rest.isEmpty { return top }
        return try CALayer._resolve(top, rest, keyPath: keyPath)
    }

    /// `setValue(_:forKeyPath:)` that throws instead of ignoring bad input. Struct components
    /// are read-modify-write of the top-level key (one action search, for that key).
    package func _trySetValue(_ value: Any?, forKeyPath keyPath: String) throws {
        if _isSingleKey(keyPath) { return try _trySetValue(value, forKey: keyPath) }
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first, !first.isEmpty else {
            throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: "")
        }
        let key = String(first)
        let rest = parts.dropFirst()
        if rest.isEmpty { return try _trySetValue(value, forKey: key) }
        if key == "emitterCells", let emitter = self as? CAEmitterLayer {
            return try emitter._trySetCellValue(value, path: rest, keyPath: keyPath)
        }
        let top = self.value(forKey: key)
        if let layer = top as? CALayer {
            return try layer._trySetValue(value, forKeyPath: rest.joined(separator: "."))
        }
        guard let top, _StructKeyPath.isStruct(top) else {
            throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: String(rest.first!))
        }
        let updated = try _StructKeyPath.set(top, rest, to: value, keyPath: keyPath)
        try _trySetValue(updated, forKey: key)
    }

    /// A non-empty key path without a dot: its one component is itself.
    @inline(__always)
    final func _isSingleKey(_ keyPath: String) -> Bool {
        !keyPath.isEmpty && !keyPath.utf8.contains(UInt8(ascii: "."))
    }

    /// Follows `path` into a value: layers recurse, dictionaries look up, structs decompose.
    static func _resolve(_ value: Any?, _ path: ArraySlice<Substring>, keyPath: String) throws -> Any? {
        guard let component = path.first else { return value }
        if let layer = value as? CALayer {
            return try layer._tryValue(forKeyPath: path.joined(separator: "."))
        }
        // Emitter cells (Apple's `emitterCells.<name>.<key>`): an array of cells is searched by
        // `name` (the first with it), a cell answers its keys.
        if let cells = value as? [CAEmitterCell] {
            guard let cell = cells.first(where: { $0.name == String(component) }) else {
                throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: String(component))
            }
            return try _resolve(cell, path.dropFirst(), keyPath: keyPath)
        }
        if let cell = value as? CAEmitterCell {
            return try _resolve(try cell._tryValue(forKey: String(component), keyPath: keyPath), path.dropFirst(), keyPath: keyPath)
        }
        if let dict = value as? [String: Any] {
            return try _resolve(dict[String(component)], path.dropFirst(), keyPath: keyPath)
        }
        if let dict = value as? [AnyHashable: Any] {
            return try _resolve(dict[String(component)], path.dropFirst(), keyPath: keyPath)
        }
        if let value, _StructKeyPath.isStruct(value) {
            return try _StructKeyPath.get(value, path, keyPath: keyPath)
        }
        throw LayerKVCError.unknownKeyPathComponent(keyPath: keyPath, component: String(component))
    }
}

/// Equality for KVC values of unknown type: `AnyHashable` when both are hashable, identity for
/// objects, else "different" (so the change counts).
func _kvcEqual(_ a: Any?, _ b: Any?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (nil, _), (_, nil): return false
    case let (x?, y?):
        if let hx = x as? AnyHashable, let hy = y as? AnyHashable { return hx == hy }
        if type(of: x) is AnyClass, type(of: y) is AnyClass { return (x as AnyObject) === (y as AnyObject) }
        return false
    }
}
