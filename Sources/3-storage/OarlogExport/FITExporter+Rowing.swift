import OarlogCore

/// The rowing figures a FIT file has no field for, as FIT developer fields, so a site that
/// learns to read them can (Intervals.icu keeps developer fields as custom streams; Strava
/// drops them). The file declares them once, after `file_id`: one `developer_data_id`
/// (developer data index 0, application id `oarlog-rowing-v1`) and one `field_description` per
/// field; every `record` then carries them for the stroke under way at that fix (invalid when
/// not rowing or unknown).
///
/// Names: `DriveTime`, `StrokeRecoveryTime` and `AverageBoatSpeed` are the names (and types)
/// Rowsandall chose for its FIT export (its developer, on the Intervals.icu forum thread
/// "Support for rowing data / migrating from rowsandall.com", 2025), after rowingdata's CSV
/// columns (its speed scale of 1000 does not fit the description's one-byte `scale`: 100 here);
/// `StrokeDistance` is rowingdata's column ` StrokeDistance (meters)`. `Check`,
/// `SpeedSwing` and `DriveRecoveryRatio` have no name in the rowing community yet: Oarlog's,
/// after its own CSV columns. Heart rate and power go in the record's own `heart_rate` and
/// `power` fields, which every site reads. docs/EXPORTS.md, "FIT".
extension FITExporter {
    /// One developer field: its number, name, type, scale and units.
    struct RowingField {
        var number: UInt8
        var name: String
        var type: FITEncoder.BaseType
        var scale: Int64
        var units: String
    }

    static let rowingFields: [RowingField] = [
        RowingField(number: 0, name: "StrokeDistance", type: .uint16, scale: 100, units: "m"),
        RowingField(number: 1, name: "DriveTime", type: .uint16, scale: 1, units: "ms"),
        RowingField(number: 2, name: "StrokeRecoveryTime", type: .uint16, scale: 1, units: "ms"),
        RowingField(number: 3, name: "AverageBoatSpeed", type: .uint16, scale: 100, units: "m/s"),
        RowingField(number: 4, name: "DriveRecoveryRatio", type: .uint16, scale: 100, units: ""),
        RowingField(number: 5, name: "Check", type: .uint16, scale: 100, units: "m/s2"),
        RowingField(number: 6, name: "SpeedSwing", type: .uint16, scale: 100, units: "m/s"),
    ]

    /// The application id of Oarlog's developer data (16 bytes).
    static let applicationID = Array("oarlog-rowing-v1".utf8)

    static let developerDataID = FITEncoder.Definition(localType: 9, globalNumber: 207, fields: [
        F(1, .byte, size: 16), F(2, .uint16), F(3, .uint8), F(4, .uint32),
    ])
    static let fieldDescription = FITEncoder.Definition(localType: 10, globalNumber: 206, fields: [
        F(0, .uint8), F(1, .uint8), F(2, .uint8), F(3, .string, size: 32), F(6, .uint8), F(8, .string, size: 8),
    ])
    static let rowingDeveloperFields = rowingFields.map { F($0.number, $0.type) }

    /// The `developer_data_id` and a `field_description` per rowing field.
    func writeRowingDescriptions(_ e: FITEncoder) throws {
        try e.write(Self.developerDataID) { m in
            m.put(bytes: Self.applicationID)
            m.put(FITExporter.Profile.manufacturerDevelopment)
            m.put(0)
            m.put(1)
        }
        for f in Self.rowingFields {
            try e.write(Self.fieldDescription) { m in
                m.put(0)
                m.put(Int64(f.number))
                m.put(Int64(f.type.rawValue))
                m.put(text: f.name)
                m.put(f.scale)
                m.put(text: f.units)
            }
        }
    }

    /// The rowing fields' values for `stroke`, in `rowingFields`' order (all invalid without one).
    static func putRowing(_ stroke: StrokeMetrics?, into m: inout FITEncoder.MessageBuilder) {
        let event = stroke?.stroke
        m.put(FITEncoder.scaled(stroke?.distancePerStroke, 100))
        m.put(FITEncoder.scaled(event.flatMap { $0.driveDuration > 0 ? $0.driveDuration : nil }, 1000))
        m.put(FITEncoder.scaled(event?.recoveryDuration, 1000))
        m.put(FITEncoder.scaled(stroke?.quality?.meanSpeed, 100))
        m.put(FITEncoder.scaled(event?.driveRecoveryRatio, 100))
        m.put(FITEncoder.scaled(stroke?.quality.map { Double($0.check) }, 100))
        m.put(FITEncoder.scaled(stroke?.quality?.speedFluctuation, 100))
    }
}
