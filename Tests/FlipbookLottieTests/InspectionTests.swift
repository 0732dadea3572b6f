import Foundation
import Testing
import FlipbookTestSupport
@testable import FlipbookLottie

/// ``LottieInspection``: what `flipbook info` reports — counts over the file (precomposition
/// contents once each), assets, markers, fonts, and features marked inexact by exactly the
/// warnings a ``LottieAnimationLayer`` reports.
@Suite struct InspectionTests {
    static func animation(_ text: String) throws -> LottieAnimation {
        try LottieAnimation(data: Data(text.utf8))
    }

    static func feature(_ i: LottieInspection, _ name: String) -> LottieInspection.Feature? {
        i.features.first { $0.name == name }
    }

    @Test func logoFixture() throws {
        let path = LottieReferences.directory + "/fixtures/LottieLogo1.json"
        let i = try LottieAnimation.load(filepath: path).inspection()
        #expect(i.width == 375 && i.height == 667 && i.framerate == 30)
        #expect(i.startFrame == 0 && i.endFrame == 179 && i.frameCount == 179 && i.version == "4.4.26")
        #expect(i.layers == [.shape: 45, .solid: 3] && i.layerCount == 48)
        // The fixture's documented inventory (Tests/Fixtures/lottie/fixtures/SOURCES.md).
        #expect(Self.feature(i, "trim path")?.count == 40)
        #expect(Self.feature(i, "stroke")?.count == 41)
        #expect(Self.feature(i, "fill")?.count == 4)
        #expect(Self.feature(i, "path")?.count == 39)
        #expect(Self.feature(i, "ellipse")?.count == 5)
        #expect(Self.feature(i, "rectangle")?.count == 1)
        #expect(Self.feature(i, "trim path")?.firstPath == "layers[1].shapes[0].it[1]")
        #expect(i.features.allSatisfy(\.isExact) && i.warnings.isEmpty)
    }

    /// Features split by mode are marked by their own warnings only: hard mix is not drawn, multiply
    /// is; an unknown matte mode is warned, alpha is drawn. Name-matched kinds (expression, effect,
    /// mask feather) are marked; offset paths and zig-zags are drawn; the warning list is the layer's.
    @Test func inexactFeaturesFollowTheMappingWarnings() throws {
        let solid = ##""ty":1,"sc":"#ff0000","sw":10,"sh":10"##
        let text = #"{"v":"5.7.0","fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":["#
            + #"{\#(solid),"ks":{},"bm":17},"#
            + #"{\#(solid),"ks":{},"bm":1},"#
            + #"{\#(solid),"ks":{},"tt":9},"#
            + #"{\#(solid),"ks":{},"tt":1},"#
            + #"{\#(solid),"ks":{"o":{"a":0,"k":50,"x":"value"}},"ef":[{"ty":29,"nm":"Blur","en":1},{"ty":5,"en":0}],"#
            + #""masksProperties":[{"mode":"a","pt":{"a":0,"k":{"c":true,"v":[[0,0],[5,0],[5,5]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]]}},"f":{"a":0,"k":[2,2]}}]},"#
            + #"{"ty":4,"ks":{},"shapes":[{"ty":"el","p":{"a":0,"k":[5,5]},"s":{"a":0,"k":[4,4]}},"#
            + #"{"ty":"op","a":{"a":0,"k":2},"lj":1,"ml":{"a":0,"k":4}},{"ty":"zz"},{"ty":"fl","c":{"a":0,"k":[0,0,1,1]},"hd":true}]}"#
            + "]}"
        let animation = try Self.animation(text)
        let i = animation.inspection()
        let layerWarnings = VirtualRunLoop().run { LottieAnimationLayer(animation: animation, logger: .silent).warnings }
        #expect(i.warnings == layerWarnings)
        let inexact = Set(i.features.filter { !$0.isExact }.map(\.name))
        #expect(inexact == ["blend mode hard mix", "track matte (mode 9)", "expression", "effect", "mask feather"])
        #expect(Self.feature(i, "offset path")?.isExact == true && Self.feature(i, "zig-zag")?.isExact == true)
        for exact in ["blend mode multiply", "track matte alpha", "mask add", "solid", "ellipse", "hidden shape item"] {
            #expect(Self.feature(i, exact)?.isExact == true, "\(exact)")
        }
        #expect(Self.feature(i, "effect")?.count == 1)   // the disabled one is not drawn anyway
        #expect(Self.feature(i, "fill") == nil)          // hidden
        #expect(Self.feature(i, "blend mode hard mix")?.warnings.map(\.path) == ["layers[0].bm"])
        #expect(Self.feature(i, "expression")?.firstPath == "layers[4].ks.o")
    }

    /// Layers count once per asset; uses count the precomposition layers; images say where they
    /// come from; markers and fonts are listed.
    @Test func assetsMarkersFonts() throws {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
        let text = #"{"v":"5.7.0","fr":25,"ip":5,"op":30.5,"w":20,"h":10,"nm":"t","#
            + #""assets":[{"id":"pre","fr":50,"layers":[{"ty":3,"ks":{}},{"ty":4,"ks":{},"shapes":[]}]},"#
            + #"{"id":"emb","w":1,"h":1,"u":"","p":"data:image/png;base64,\#(png)","e":1},"#
            + #"{"id":"ext","w":3,"h":3,"u":"images/","p":"x.png","e":0}],"#
            + #""fonts":{"list":[{"fName":"NoSuchFont-Bold","fFamily":"NoSuchFont","fStyle":"Bold"}]},"#
            + #""markers":[{"cm":"intro","tm":5,"dr":10}],"#
            + #""layers":[{"ty":0,"refId":"pre","ks":{},"tm":{"a":0,"k":0.5}},{"ty":0,"refId":"pre","ks":{},"sr":2},{"ty":2,"refId":"emb","ks":{}}]}"#
        let i = try Self.animation(text).inspection()
        #expect(i.frameCount == 26 && i.duration == 25.5 / 25 && i.name == "t")
        #expect(i.layers == [.precomposition: 2, .image: 1, .null: 1, .shape: 1])
        #expect(i.precompositions == [.init(id: "pre", layerCount: 2, framerate: 50, uses: 2)])
        #expect(i.images.map(\.id) == ["emb", "ext"])
        #expect(i.images[0].isEmbedded && i.images[0].isLoaded && i.images[0].file == nil && i.images[0].byteCount > 0)
        #expect(!i.images[1].isEmbedded && !i.images[1].isLoaded && i.images[1].file == "images/x.png")
        #expect(i.markers == [.init(name: "intro", frame: 5, duration: 10)])
        #expect(i.fonts == [.init(name: "NoSuchFont-Bold", family: "NoSuchFont", style: "Bold", glyphs: 0, availability: .missing)])
        #expect(Self.feature(i, "time remap")?.count == 1 && Self.feature(i, "time stretch")?.count == 1)
        #expect(Self.feature(i, "precomposition")?.count == 2)
        // The missing file is warned, but no layer shows that image: the image layer (which
        // shows the embedded one) is drawn exactly.
        #expect(i.warnings.contains { $0.feature == "image" && $0.path == "assets[2].p" && $0.message.contains("images/x.png") })
        #expect(Self.feature(i, "image")?.isExact == true)
        // Shown by a layer, it marks the feature.
        let shown = try Self.animation(text.replacingOccurrences(of: #"{"ty":2,"refId":"emb","ks":{}}"#,
                                                                  with: #"{"ty":2,"refId":"emb","ks":{}},{"ty":2,"refId":"ext","ks":{}}"#))
            .inspection()
        #expect(Self.feature(shown, "image")?.count == 2)
        #expect(Self.feature(shown, "image")?.warnings.map(\.path) == ["assets[2].p"])
    }
}
