import TesseraHTTP
import TesseraViews

extension ServerRefusal {
    /// The refusal's words from the framework's catalog, in every language it has. A case
    /// without its message here fails the build; `english` and the catalog's English agree
    /// (`ServerRefusalLanguageTests`).
    var text: LocalizedText {
        switch self {
        case .requestLineMalformed: Messages.refusalRequestLine.text()
        case .httpVersionNotSupported: Messages.refusalHttpVersion.text()
        case .chunkedBodyMalformed: Messages.refusalChunkedBody.text()
        case .methodNotSupported(let name): Messages.refusalMethod.text(["method": name.isEmpty ? "(none)" : name])
        case .urlTooLong(let limit): Messages.refusalUrlTooLong.text(["limit": limit])
        case .headersTooLarge(let limit): Messages.refusalHeadersTooLarge.text(["limit": limit])
        case .headerNameInvalid: Messages.refusalHeaderName.text()
        case .headerValueControlCharacter: Messages.refusalHeaderControl.text()
        case .requestLineSpacing: Messages.refusalRequestLineSpacing.text()
        case .hostHeader: Messages.refusalHost.text()
        case .transferEncodingRepeated: Messages.refusalTransferEncodingRepeated.text()
        case .transferCodingUnsupported: Messages.refusalTransferCoding.text()
        case .contentLengthWithTransferEncoding: Messages.refusalLengthWithEncoding.text()
        case .contentLengthNotANumber: Messages.refusalLengthNotNumber.text()
        case .contentLengthConflicting: Messages.refusalLengthConflicting.text()
        case .targetNotAPath: Messages.refusalTargetNotPath.text()
        case .pathNotUTF8: Messages.refusalPathUtf8.text()
        case .pathEncodedSlash: Messages.refusalPathEncodedSlash.text()
        case .pathNUL: Messages.refusalPathNul.text()
        case .pathDotSegment: Messages.refusalPathDotSegment.text()
        case .pathNeedlessEscape: Messages.refusalPathNeedlessEscape.text()
        case .queryNotUTF8: Messages.refusalQueryUtf8.text()
        case .tooManyConnections: Messages.refusalTooManyConnections.text()
        case .bodyTooLarge(let bytes): Messages.refusalBodyTooLarge.text(["bytes": bytes])
        case .uploadTooLarge(let megabytes): Messages.refusalUploadTooLarge.text(["megabytes": megabytes])
        case .uploadNotStored: Messages.refusalUploadNotStored.text()
        case .uploadNotRead: Messages.refusalUploadNotRead.text()
        case .tooSlow: Messages.refusalTooSlow.text()
        case .shuttingDown: Messages.refusalShuttingDown.text()
        case .formMediaType: Messages.refusalFormMediaType.text()
        case .formNUL: Messages.refusalFormNul.text()
        case .multipartNoBoundary: Messages.refusalMultipartBoundary.text()
        case .multipartMalformed(let detail): Messages.refusalMultipartMalformed.text(["detail": detail])
        case .multipartTooManyParts: Messages.refusalMultipartParts.text()
        case .multipartTooManyFiles(let max): Messages.refusalMultipartFiles.text(["max": max])
        case .multipartTextTooLarge: Messages.refusalMultipartText.text()
        case .fileNameUnusable: Messages.refusalFileName.text()
        }
    }
}
