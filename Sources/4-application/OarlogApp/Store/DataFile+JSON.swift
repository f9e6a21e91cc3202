import Foundation

/// A data file that holds one JSON array of `Codable` items (`accounts.json`, `uploads.json`).
extension DataFile {
    /// The items; none when there is no file yet. Errors are sentences naming the file.
    func items<Item: Decodable>(_ type: Item.Type) throws -> [Item] {
        let bytes: [UInt8]?
        do { bytes = try read() } catch { throw AppError(error.description) }
        guard let bytes, !bytes.isEmpty else { return [] }
        do { return try JSONDecoder().decode([Item].self, from: Data(bytes)) } catch {
            throw AppError("\(fileName) cannot be read: \(error.localizedDescription)")
        }
    }

    /// Reads the items, lets `body` change them and, when they changed, writes them back (keys
    /// sorted; `pretty` for a file a person may read), all under the file's lock.
    func changeItems<Item: Codable & Equatable, T>(_ type: Item.Type, pretty: Bool = false,
                                                    _ body: (inout [Item]) throws -> T) throws -> T {
        do {
            return try locked { () throws -> T in
                var all = try items(Item.self)
                let before = all
                let result = try body(&all)
                guard all != before else { return result }
                let encoder = JSONEncoder()
                encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys] : [.sortedKeys]
                let text = String(decoding: try encoder.encode(all), as: UTF8.self) + "\n"
                do { try replace(with: text) } catch { throw AppError("\(error)") }
                return result
            }
        } catch let error as AppError {
            throw error
        } catch {
            throw AppError("\(error)")
        }
    }
}
