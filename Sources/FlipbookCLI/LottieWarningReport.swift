import FlipbookLottie

/// How `render` reports a Lottie file's ``LottieWarning``s on stderr: **one line per kind of
/// feature** not drawn exactly — its first warning in full, then how many more of that kind
/// there are — so a file with forty expressions says so in one line, not forty:
///
///     warning: layers[2].ks.r: expression: expression not evaluated; its static value is used (and 39 more expression warnings; flipbook info anim.json lists them)
///     warning: layers[7].ef[0]: effect: the effect "Glow" (type 29) is not drawn
///
/// Printed once per run, when the tree is built (never per frame or per thread); `--quiet`
/// drops them. `flipbook info` lists every warning.
enum LottieWarningReport {
    /// The lines to print (each ends in a newline), in order of each kind's first warning.
    static func lines(_ warnings: [LottieWarning], file: String) -> [String] {
        var order: [String] = []
        var byFeature: [String: (first: LottieWarning, count: Int)] = [:]
        var seen = Set<LottieWarning>()
        for w in warnings where seen.insert(w).inserted {
            if let e = byFeature[w.feature] {
                byFeature[w.feature] = (e.first, e.count + 1)
            } else {
                order.append(w.feature)
                byFeature[w.feature] = (w, 1)
            }
        }
        return order.map { feature in
            let (first, count) = byFeature[feature]!
            var line = "warning: " + first.description.replacingNewlines()
            if count > 1 {
                line += " (and \(count - 1) more \(feature) warning\(count == 2 ? "" : "s"); flipbook info \(file) lists them)"
            }
            return line + "\n"
        }
    }
}
