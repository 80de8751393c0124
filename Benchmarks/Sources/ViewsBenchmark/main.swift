import Foundation
import Mustache
import TesseraViews

/// Renders the Fortunes page with the typed views and with swift-mustache, the same data and the
/// same markup, in alternating rounds, and prints renders per second and the ratio.
let page = FortunesData.page
let rounds = 5
let roundDuration = Duration.milliseconds(700)

var library = MustacheLibrary()
try library.register(
    "<!DOCTYPE html><html><head><title>{{title}}</title></head><body>{{$content}}{{/content}}</body></html>",
    named: "layout")
try library.register(
    "{{<layout}}{{$content}}<table><tr><th>id</th><th>message</th></tr>{{#fortunes}}<tr><td>{{id}}</td><td>{{message}}</td></tr>{{/fortunes}}</table>{{/content}}{{/layout}}",
    named: "fortunes")
struct MustacheModel {
    var title: String
    var fortunes: [Fortune]
}
let mustacheModel = MustacheModel(title: page.layout.title, fortunes: page.fortunes)
/// swift-mustache at its fastest: dictionaries need no `Mirror`.
let mustacheDictionary: [String: Any] = [
    "title": page.layout.title,
    "fortunes": page.fortunes.map { ["id": $0.id, "message": $0.message] as [String: Any] },
]

// Both must produce the same bytes, or the comparison means nothing.
let typed = FortunesView.render(page).string.trimmingTrailingNewlines()
let mustache = (library.render(mustacheModel, withTemplate: "fortunes") ?? "").trimmingTrailingNewlines()
let mustacheFromDictionary = (library.render(mustacheDictionary, withTemplate: "fortunes") ?? "").trimmingTrailingNewlines()
guard typed == mustache, typed == mustacheFromDictionary else {
    print("outputs differ:\ntyped:    \(typed)\nmustache: \(mustache)")
    exit(1)
}

func rendersPerSecond(_ render: () -> Int) -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    var count = 0
    var sink = 0
    while clock.now - start < roundDuration {
        for _ in 0..<100 { sink &+= render() }
        count += 100
    }
    precondition(sink > 0)
    let elapsed = clock.now - start
    return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}

var typedSamples: [Double] = []
var structSamples: [Double] = []
var dictionarySamples: [Double] = []
for round in 1...rounds {
    typedSamples.append(rendersPerSecond { FortunesView.render(page).bytes.count })
    structSamples.append(rendersPerSecond { library.render(mustacheModel, withTemplate: "fortunes")!.utf8.count })
    dictionarySamples.append(rendersPerSecond { library.render(mustacheDictionary, withTemplate: "fortunes")!.utf8.count })
    print("  round \(round): typed views \(Int(typedSamples.last!)), swift-mustache (struct) \(Int(structSamples.last!)), "
          + "swift-mustache (dictionary) \(Int(dictionarySamples.last!)) renders/s")
}
/// The median of per-round ratios: each round measures both back to back, so machine load cancels out.
func medianRatio(_ typed: [Double], _ samples: [Double]) -> Double {
    zip(typed, samples).map { $0 / $1 }.sorted()[rounds / 2]
}
func median(_ samples: [Double]) -> Int { Int(samples.sorted()[rounds / 2]) }
print("""

    Fortunes page (13 rows, escaped, in a layout), \(typed.utf8.count) bytes, medians of \(rounds) rounds
    | renderer | renders/s | typed views are |
    |---|---:|---:|
    | Tessera typed views | \(median(typedSamples)) | |
    | swift-mustache 2, struct model (Mirror) | \(median(structSamples)) | \(String(format: "%.1f", medianRatio(typedSamples, structSamples)))× faster |
    | swift-mustache 2, dictionary model | \(median(dictionarySamples)) | \(String(format: "%.1f", medianRatio(typedSamples, dictionarySamples)))× faster |
    """)

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        while text.hasPrefix("\n") { text.removeFirst() }
        return text
    }
}
