import Testing
import Foundation
@testable import FlipbookRender
import Flipbook
import FlipbookScene

/// The scene samples: every file parses, and the full-featured one gives the expected structs.
@Suite struct SceneParseTests {
    static let scenesDir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples/scenes").path

    @Test func everySampleParses() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.scenesDir).filter { $0.hasSuffix(".json") }
        #expect(files.count >= 4)
        for f in files {
            #expect(throws: Never.self, "\(f)") { _ = try SceneParser.parse(contentsOf: Self.scenesDir + "/" + f) }
        }
    }

    @Test func fullFeaturedScene() throws {
        let s = try SceneParser.parse(contentsOf: Self.scenesDir + "/features.json", displayName: "features.json")
        #expect(s.recording.pixelWidth == 640 && s.recording.pixelHeight == 360)
        #expect(s.recording.frames == 0...59 && s.format == .png)
        #expect(s.recording.background == CGColor(srgbRed: 32.0 / 255, green: 32.0 / 255, blue: 32.0 / 255, alpha: 1))
        #expect(s.root.name == "root" && s.root.bounds == CGRect(x: 0, y: 0, width: 320, height: 180))
        #expect(s.root.sublayerTransform?.m34 == -1.0 / 600)
        let card = s.root.sublayers[0]
        #expect(card.name == "card" && card.position == CGPoint(x: 160, y: 90))
        let expected = CATransform3DMakeScale(1.2, 1.2, 1) * CATransform3DMakeRotation(.pi / 6, 0, 1, 0) * CATransform3DMakeTranslation(0, 0, 10)
        #expect(card.transform == expected)
        #expect(card.backgroundColor == .some(CGColor(srgbRed: 0.2, green: 0.4, blue: 0.8, alpha: 1)))
        #expect(card.maskedCorners == [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
        #expect(card.contentsGravity == .resizeAspect && card.minificationFilter == .trilinear && card.magnificationFilter == .nearest)
        #expect(card.contents?.resolvedPath == Self.scenesDir + "/images/checker.png")
        #expect(card.mask?.value.name == "cardMask" && card.mask?.value.frame == CGRect(x: 0, y: 0, width: 120, height: 80))
        #expect(card.actions?["position"] == ActionDescription.none)
        guard case let .animation(opacityAction)? = card.actions?["opacity"], case let .basic(b) = opacityAction.kind else {
            Issue.record("opacity action"); return
        }
        #expect(b.property.keyPath == nil && opacityAction.duration == 5)
        #expect(card.style?.properties == [PropertyValue("cornerRadius", .number(4))])
        #expect(card.style?.style?.value.actions?["hidden"] == ActionDescription.none)
        #expect(card.sublayers[0].backgroundColor == .some(nil))
        #expect(card.animations.map(\.key) == ["spin", "wag", "orbit", "bounce", "pulse", "push"])
        let spin = card.animations[0]
        #expect(spin.repeatCount == .infinity && spin.timingFunction == .named(.linear))
        guard case let .basic(spinBasic) = spin.kind else { Issue.record("spin"); return }
        #expect(spinBasic.toValue == .number(2 * .pi) && spinBasic.property.keyPath == "transform.rotation.z")
        guard case let .keyframe(wag) = card.animations[1].kind else { Issue.record("wag"); return }
        #expect(wag.values == [.number(140), .number(180), .number(160)] && wag.keyTimes == [0, 0.5, 1])
        #expect(wag.timingFunctions == [.named(.easeIn), .controlPoints(0.3, 1.6, 0.6, 1)])
        #expect(card.animations[1].fillMode == .both && card.animations[1].autoreverses == true)
        guard case let .keyframe(orbit) = card.animations[2].kind else { Issue.record("orbit"); return }
        #expect(orbit.path?.elements.count == 4 && orbit.path?.elements.last == .closeSubpath && orbit.rotationMode == .rotateAuto)
        guard case let .spring(spring) = card.animations[3].kind else { Issue.record("spring"); return }
        #expect(spring.stiffness == 200 && spring.basic.toValue == .number(120))
        guard case let .group(members) = card.animations[4].kind else { Issue.record("group"); return }
        guard case let .basic(scaleAnim) = members[1].kind else { Issue.record("group[1]"); return }
        #expect(scaleAnim.property.valueFunction == .scale && scaleAnim.toValue == .vector3(1.1, 1.1, 1))
        guard case let .transition(push) = card.animations[5].kind else { Issue.record("transition"); return }
        #expect(push.type == .push && push.subtype == .fromLeft)

        #expect(s.timeline.map(\.time) == [0.5, 1.5])
        let t = s.timeline[0].transaction
        #expect(t.duration == 1 && t.timingFunction == .named(.easeInEaseOut))
        #expect(t.steps[0] == .set(layer: "card", properties: [
            PropertyValue("position", .point(CGPoint(x: 200, y: 90))),
            PropertyValue("backgroundColor", .color(CGColor(srgbRed: 0.8, green: 0.2, blue: 0.2, alpha: 1))),
            PropertyValue("hidden", .bool(false)),
        ]))
        guard case let .add(add) = t.steps[1], case let .new(badge) = add.source else { Issue.record("add"); return }
        #expect(badge.name == "badge" && add.parent == "card" && add.index == 1)
        guard case let .transaction(inner) = t.steps[3] else { Issue.record("nested"); return }
        #expect(inner.disableActions == true)
        #expect(t.completion?.value.steps == [.remove(layer: "badge"), .removeAnimation(layer: "card", key: "spin")])
        #expect(s.timeline[1].transaction.steps[0] == .add(LayerAddition(source: .existing("badge"), parent: "root")))
    }

    @Test func summary() throws {
        let s = try SceneParser.parse(contentsOf: Self.scenesDir + "/features.json")
        let sum = SceneSummary(s)
        #expect(sum.layerCount == 5)  // root, card, cardMask, label, badge
        #expect(sum.animationCount == 7 && sum.eventCount == 2 && sum.frameCount == 60)
        #expect(sum.images == [Self.scenesDir + "/images/checker.png"])
        #expect(sum.description.hasPrefix("size: 320×180 points × 2 = 640×360 pixels\nfps: 30\nduration: 2 s (frames 0..59, 60 frames)\nlayers: 5"))
    }
}
