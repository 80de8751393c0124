import HTTPTypes
import Tessera
import TesseraImages
import TesseraViews

/// `/photos/{name}`: a variant's bytes, as a static file is sent. Its name carries its content's
/// fingerprint, so a browser or a CDN keeps it for a year without asking again (`immutable`).
struct PhotoActions {
    let photos: PhotoService

    func register(in routes: inout RouterBuilder) {
        let photos = self.photos
        routes.action(CatalogRoutes.photo) { name, context in
            let headers: HTTPFields = [.contentType: name.format.mediaType, .cacheControl: "public, max-age=31536000, immutable"]
            switch try await photos.variant(name, within: context.databaseBudget) {
            case .file(let path)?:
                guard let file = OpenFile(path: path) else { throw HTTPError(.notFound, Messages.errorNoPhoto.text()) }
                return Response(status: .ok, headers: headers, body: .file(FileRegion(file: file)))
            case .bytes(let bytes)?:
                return Response(status: .ok, headers: headers, body: .bytes(bytes))
            case nil:
                throw HTTPError(.notFound, Messages.errorNoPhoto.text())
            }
        }
    }
}
