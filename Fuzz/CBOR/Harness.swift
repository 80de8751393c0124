/// libFuzzer's entry for the CBOR reader passkeys parse attestations with: any bytes are a value
/// or a `Malformed` error, never a crash, a hang or a runaway allocation (depth and lengths are
/// bounded); and reading is deterministic.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let first = Result { () throws(CBORReader.Malformed) in try CBORReader.decode(bytes) }
    let second = Result { () throws(CBORReader.Malformed) in try CBORReader.decode(bytes) }
    // Compared as text: a NaN is never equal to itself.
    precondition("\(first)" == "\(second)", "the same bytes read twice gave two answers")
    return 0
}
