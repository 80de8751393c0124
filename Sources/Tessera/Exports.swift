// An app imports `Tessera` and gets the whole framework, the HTTP layer and its types included.
@_exported import TesseraHTTP
