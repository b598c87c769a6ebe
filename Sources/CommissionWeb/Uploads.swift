import Foundation
import Hummingbird
import MultipartKit

/// A form with one file, as a browser uploads it (`multipart/form-data`): the file streamed to disk
/// once the form's `csrf` part (first in the form) has matched the session's, its small fields beside
/// it — a backup to restore, a workbook to import, a clinic's statement to compare.
extension WebApp {
    /// Streams the request's `field` part to a new file and returns its path, with the form's other
    /// small fields (256 bytes each at most). Refuses a missing file (`missing`), a bad token and a
    /// file over `limit` (by default ``WebConfiguration/maxBackupSize``; `tooLarge`), leaving
    /// nothing behind.
    func receiveUpload(
        _ request: Request,
        context: AppRequestContext,
        field: String,
        missing: String,
        tooLarge: String,
        limit: Int? = nil
    ) async throws -> (path: String, fields: [String: String]) {
        guard let expected = context.uploadCSRF else {
            throw Problem(
                .badRequest,
                "Send the file as a form upload (multipart/form-data), from the page it is chosen on."
            )
        }
        guard let type = request.headers[.contentType], let match = type.firstMatch(of: /boundary="?([^";]+)"?/),
            !match.1.isEmpty, match.1.count <= 200
        else {
            throw Problem(.badRequest, "The upload has no multipart boundary.")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "commission-restore-\(UUID().uuidString)"
        ).path
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else {
            throw Problem(.internalServerError, "The server could not keep the upload.")
        }
        let upload = Upload(
            expectedCSRF: expected,
            file: file,
            limit: limit ?? configuration.maxBackupSize,
            fileField: field,
            tooLarge: tooLarge
        )
        let parser = MultipartParser(boundary: String(match.1))
        parser.onHeader = { name, value in upload.header(name, value) }
        parser.onBody = { buffer in upload.body(&buffer) }
        parser.onPartComplete = { upload.partComplete() }
        do {
            for try await buffer in request.body {
                try parser.execute(buffer)
                if upload.failure != nil { break }
            }
            try file.close()
        } catch {
            // try?: closing the partial upload on the way out with the error thrown below, which is what she sees
            try? file.close()
            // try?: the partial upload; the OS cleans its temporary directory
            try? FileManager.default.removeItem(atPath: path)
            throw Problem(.badRequest, "The upload is not a well-formed form (multipart/form-data).")
        }
        if let failure = upload.failure ?? (upload.bytes == 0 ? Problem(.unprocessableContent, missing) : nil) {
            // try?: the refused upload, on the way out with its refusal; the OS cleans its temporary directory
            try? FileManager.default.removeItem(atPath: path)
            throw failure
        }
        return (path, upload.fields.mapValues { String(decoding: $0, as: UTF8.self) })
    }

    /// What an upload's parts have given so far (the parser's callbacks run one after the other).
    final class Upload {
        let expectedCSRF: String
        let file: FileHandle
        let limit: Int
        /// The part that holds the file (`backup`, `workbook`), and the sentence for one too large.
        let fileField: String, tooLarge: String
        var part: String?
        var csrf: [UInt8] = []
        /// The form's other small fields (a choice, a button's value), 256 bytes each at most.
        var fields: [String: [UInt8]] = [:]
        var verified = false
        var bytes = 0
        var failure: Problem?

        init(expectedCSRF: String, file: FileHandle, limit: Int, fileField: String, tooLarge: String) {
            self.expectedCSRF = expectedCSRF
            self.file = file
            self.limit = limit
            self.fileField = fileField
            self.tooLarge = tooLarge
        }

        func header(_ name: String, _ value: String) {
            guard name.lowercased() == "content-disposition" else { return }
            part = value.firstMatch(of: /(?:^|;)\s*name="([^"]*)"/).map { String($0.1) }
        }

        func body(_ buffer: inout ByteBuffer) {
            guard failure == nil else { return }
            switch part {
            case "csrf":
                if csrf.count < 256 { csrf += buffer.readableBytesView.prefix(256 - csrf.count) }
            case fileField?:
                guard verified else {
                    failure = Problem(
                        .forbidden,
                        "This form has expired or did not come from Commission (its CSRF token is missing or wrong). Reload the page and try again."
                    )
                    return
                }
                bytes += buffer.readableBytes
                guard bytes <= limit else {
                    failure = Problem(.contentTooLarge, tooLarge)
                    return
                }
                do {
                    try file.write(contentsOf: buffer.readableBytesView)
                } catch {
                    failure = Problem(.internalServerError, "The server could not keep the upload (is its disk full?).")
                }
            case let name?:
                if fields.count < 16, fields[name, default: []].count < 256 {
                    fields[name, default: []] += buffer.readableBytesView.prefix(256 - fields[name, default: []].count)
                }
            case nil:
                break
            }
        }

        func partComplete() {
            if part == "csrf" { verified = Secret.matches(String(decoding: csrf, as: UTF8.self), expectedCSRF) }
            part = nil
        }
    }
}
