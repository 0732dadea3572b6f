import Flipbook
import Foundation

/// A `CAEmitterCell` in a scene file (`"emitterCells": [ … ]` of an `"class": "emitter"` layer):
/// each key is the cell property of the same name; absent keys keep Apple's defaults.
public struct EmitterCellDescription: Sendable, Equatable {
    public var name: String?
    public var isEnabled: Bool?
    /// Numbers by property name (`birthRate`, `lifetime`, `lifetimeRange`, `emissionLatitude`,
    /// `emissionLongitude`, `emissionRange`, `velocity`, `velocityRange`, `xAcceleration`,
    /// `yAcceleration`, `zAcceleration`, `scale`, `scaleRange`, `scaleSpeed`, `spin`, `spinRange`,
    /// the colour ranges and speeds, `contentsScale`, `beginTime`, `duration`).
    public var numbers: [String: Double] = [:]
    public var color: CGColor??
    public var contents: SceneImage?
    public var contentsRect: CGRect?
    public var emitterCells: [EmitterCellDescription] = []

    public init() {}

    /// The number keys a cell object accepts.
    public static let numberKeys = [
        "birthRate", "lifetime", "lifetimeRange", "emissionLatitude", "emissionLongitude", "emissionRange",
        "velocity", "velocityRange", "xAcceleration", "yAcceleration", "zAcceleration", "scale", "scaleRange",
        "scaleSpeed", "spin", "spinRange", "redRange", "greenRange", "blueRange", "alphaRange", "redSpeed",
        "greenSpeed", "blueSpeed", "alphaSpeed", "contentsScale", "beginTime", "duration",
    ]
}
