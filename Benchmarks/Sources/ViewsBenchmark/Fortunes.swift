/// The TechEmpower "Fortunes" data: the 12 standard rows, the one added at request time, sorted
/// by message. Rendering escapes them; several contain markup on purpose.
struct Fortune {
    var id: Int
    var message: String
}

struct FortunesLayout {
    var title: String
}

struct FortunesPage {
    var layout: FortunesLayout
    var fortunes: [Fortune]
}

enum FortunesData {
    static let stored: [Fortune] = [
        Fortune(id: 1, message: "fortune: No such file or directory"),
        Fortune(id: 2, message: "A computer scientist is someone who fixes things that aren't broken."),
        Fortune(id: 3, message: "After enough decimal places, nobody gives a damn."),
        Fortune(id: 4, message: "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"),
        Fortune(id: 5, message: "A computer program does what you tell it to do, not what you want it to do."),
        Fortune(id: 6, message: "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"),
        Fortune(id: 7, message: "Any program that runs right is obsolete."),
        Fortune(id: 8, message: "A list is only as strong as its weakest link. — Donald Knuth"),
        Fortune(id: 9, message: "Feature: A bug with seniority."),
        Fortune(id: 10, message: "Computers make very fast, very accurate mistakes."),
        Fortune(id: 11, message: "<script>alert(\"This should not be displayed in a browser alert box.\");</script>"),
        Fortune(id: 12, message: "フレームワークのベンチマーク"),
    ]

    static var page: FortunesPage {
        var fortunes = stored
        fortunes.append(Fortune(id: 0, message: "Additional fortune added at request time."))
        fortunes.sort { $0.message < $1.message }
        return FortunesPage(layout: FortunesLayout(title: "Fortunes"), fortunes: fortunes)
    }
}
