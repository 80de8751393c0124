import Foundation
import PostgresTestSupport
import Tessera
import Testing

@testable import TesseraPostgres

/// Values of every shape sent as parameters and read back in place from the answer: the
/// parameters go through libpq's arrays on the stack, and the columns are read where libpq
/// keeps them, so an empty value, a NULL, bytes with a zero in them and a value larger than any
/// stack buffer must each come back as they went.
@Suite struct PostgresValueTests {
    @Test func everyShapeOfValueComesBackAsItWent() async throws {
        let url = try await PostgresTestCluster.newDatabase()
        let connections = PostgresTestCluster.connections(url, size: 2)
        let large = String(repeating: "ü", count: 200_000)
        let bytes = PostgresBytes([0, 1, 0, 255, 92, 120])
        let none: String? = nil
        let rows = try await connections.query(
            "SELECT \(""), \(none), \(large), \(bytes), \(Int32(-7)), \(Int.max), \(true), \(2.5), \(["a", "", "c,d"])", within: .outsideRequest)
        let (empty, null, text, blob, small, big, flag, number, list) = try rows[0].decode(
            (String, String?, String, PostgresBytes, Int32, Int, Bool, Double, [String]).self)
        #expect(empty == "" && null == nil && text == large && blob == bytes)
        #expect(small == -7 && big == Int.max && flag && number == 2.5 && list == ["a", "", "c,d"])
        // Rows outlive the statement that read them: they hold its answer.
        let kept = try await connections.query("SELECT n, repeat('x', n) FROM generate_series(0, 3) AS n", within: .outsideRequest)
        _ = try await connections.query("SELECT 1", within: .outsideRequest)
        #expect(try kept.map { try $0.decode((Int, String).self) }.map { $0.1.count } == [0, 1, 2, 3])
        await connections.shutdown()
        await PostgresTestCluster.drop(url)
    }
}
