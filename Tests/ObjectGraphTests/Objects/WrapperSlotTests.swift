import Foundation
import Testing

@testable import ObjectGraph

/// An entity with more properties than a wrapper caches the slot of (slots above
/// ``WrapperSlot/largestCached`` are resolved on every access).
final class WideRecord: ManagedObject {
    @Relationship(inverse: nil) var link: WideRecord?
    @Attribute var a0: Int64 = 0
    @Attribute var a1: Int64 = 1
    @Attribute var a2: Int64 = 2
    @Attribute var a3: Int64 = 3
    @Attribute var a4: Int64 = 4
    @Attribute var a5: Int64 = 5
    @Attribute var a6: Int64 = 6
    @Attribute var a7: Int64 = 7
    @Attribute var a8: Int64 = 8
    @Attribute var a9: Int64 = 9
    @Attribute var a10: Int64 = 10
    @Attribute var a11: Int64 = 11
    @Attribute var a12: Int64 = 12
    @Attribute var a13: Int64 = 13
    @Attribute var a14: Int64 = 14
    @Attribute var a15: Int64 = 15
    @Attribute var a16: Int64 = 16
    @Attribute var a17: Int64 = 17
    @Attribute var a18: Int64 = 18
    @Attribute var a19: Int64 = 19
    @Attribute var a20: Int64 = 20
    @Attribute var a21: Int64 = 21
    @Attribute var a22: Int64 = 22
    @Attribute var a23: Int64 = 23
    @Attribute var a24: Int64 = 24
    @Attribute var a25: Int64 = 25
    @Attribute var a26: Int64 = 26
    @Attribute var a27: Int64 = 27
    @Attribute var a28: Int64 = 28
    @Attribute var a29: Int64 = 29
    @Attribute var a30: Int64 = 30
    @Attribute var a31: Int64 = 31
    @Attribute var a32: Int64 = 32
    @Attribute var a33: Int64 = 33
    @Attribute var a34: Int64 = 34
    @Attribute var a35: Int64 = 35
    @Attribute var a36: Int64 = 36
    @Attribute var a37: Int64 = 37
    @Attribute var a38: Int64 = 38
    @Attribute var a39: Int64 = 39
    @Attribute var a40: Int64 = 40
    @Attribute var a41: Int64 = 41
    @Attribute var a42: Int64 = 42
    @Attribute var a43: Int64 = 43
    @Attribute var a44: Int64 = 44
    @Attribute var a45: Int64 = 45
    @Attribute var a46: Int64 = 46
    @Attribute var a47: Int64 = 47
    @Attribute var a48: Int64 = 48
    @Attribute var a49: Int64 = 49
    @Attribute var a50: Int64 = 50
    @Attribute var a51: Int64 = 51
    @Attribute var a52: Int64 = 52
    @Attribute var a53: Int64 = 53
    @Attribute var a54: Int64 = 54
    @Attribute var a55: Int64 = 55
    @Attribute var a56: Int64 = 56
    @Attribute var a57: Int64 = 57
    @Attribute var a58: Int64 = 58
    @Attribute var a59: Int64 = 59
    @Attribute var a60: Int64 = 60
    @Attribute var a61: Int64 = 61
    @Attribute var a62: Int64 = 62
    @Attribute var a63: Int64 = 63
    @Attribute var a64: Int64 = 64
    @Attribute var a65: Int64 = 65
    @Attribute var a66: Int64 = 66
    @Attribute var a67: Int64 = 67
    @Attribute var a68: Int64 = 68
    @Attribute var a69: Int64 = 69
    @Attribute var a70: Int64 = 70
    @Attribute var a71: Int64 = 71
    @Attribute var a72: Int64 = 72
    @Attribute var a73: Int64 = 73
    @Attribute var a74: Int64 = 74
    @Attribute var a75: Int64 = 75
    @Attribute var a76: Int64 = 76
    @Attribute var a77: Int64 = 77
    @Attribute var a78: Int64 = 78
    @Attribute var a79: Int64 = 79
    @Attribute var a80: Int64 = 80
    @Attribute var a81: Int64 = 81
    @Attribute var a82: Int64 = 82
    @Attribute var a83: Int64 = 83
    @Attribute var a84: Int64 = 84
    @Attribute var a85: Int64 = 85
    @Attribute var a86: Int64 = 86
    @Attribute var a87: Int64 = 87
    @Attribute var a88: Int64 = 88
    @Attribute var a89: Int64 = 89
    @Attribute var a90: Int64 = 90
    @Attribute var a91: Int64 = 91
    @Attribute var a92: Int64 = 92
    @Attribute var a93: Int64 = 93
    @Attribute var a94: Int64 = 94
    @Attribute var a95: Int64 = 95
    @Attribute var a96: Int64 = 96
    @Attribute var a97: Int64 = 97
    @Attribute var a98: Int64 = 98
    @Attribute var a99: Int64 = 99
    @Attribute var a100: Int64 = 100
    @Attribute var a101: Int64 = 101
    @Attribute var a102: Int64 = 102
    @Attribute var a103: Int64 = 103
    @Attribute var a104: Int64 = 104
    @Attribute var a105: Int64 = 105
    @Attribute var a106: Int64 = 106
    @Attribute var a107: Int64 = 107
    @Attribute var a108: Int64 = 108
    @Attribute var a109: Int64 = 109
    @Attribute var a110: Int64 = 110
    @Attribute var a111: Int64 = 111
    @Attribute var a112: Int64 = 112
    @Attribute var a113: Int64 = 113
    @Attribute var a114: Int64 = 114
    @Attribute var a115: Int64 = 115
    @Attribute var a116: Int64 = 116
    @Attribute var a117: Int64 = 117
    @Attribute var a118: Int64 = 118
    @Attribute var a119: Int64 = 119
    @Attribute var a120: Int64 = 120
    @Attribute var a121: Int64 = 121
    @Attribute var a122: Int64 = 122
    @Attribute var a123: Int64 = 123
    @Attribute var a124: Int64 = 124
    @Attribute var a125: Int64 = 125
    @Attribute var a126: Int64 = 126
    @Attribute var a127: Int64 = 127
    @Attribute var a128: Int64 = 128
    @Attribute var a129: Int64 = 129
    @Attribute var a130: Int64 = 130
    @Attribute var a131: Int64 = 131
    @Attribute var a132: Int64 = 132
    @Attribute var a133: Int64 = 133
    @Attribute var a134: Int64 = 134
    @Attribute var a135: Int64 = 135
    @Attribute var a136: Int64 = 136
    @Attribute var a137: Int64 = 137
    @Attribute var a138: Int64 = 138
    @Attribute var a139: Int64 = 139
    @Attribute var a140: Int64 = 140
    @Attribute var a141: Int64 = 141
    @Attribute var a142: Int64 = 142
    @Attribute var a143: Int64 = 143
    @Attribute var a144: Int64 = 144
    @Attribute var a145: Int64 = 145
    @Attribute var a146: Int64 = 146
    @Attribute var a147: Int64 = 147
    @Attribute var a148: Int64 = 148
    @Attribute var a149: Int64 = 149
    @Attribute var a150: Int64 = 150
    @Attribute var a151: Int64 = 151
    @Attribute var a152: Int64 = 152
    @Attribute var a153: Int64 = 153
    @Attribute var a154: Int64 = 154
    @Attribute var a155: Int64 = 155
    @Attribute var a156: Int64 = 156
    @Attribute var a157: Int64 = 157
    @Attribute var a158: Int64 = 158
    @Attribute var a159: Int64 = 159
    @Attribute var a160: Int64 = 160
    @Attribute var a161: Int64 = 161
    @Attribute var a162: Int64 = 162
    @Attribute var a163: Int64 = 163
    @Attribute var a164: Int64 = 164
    @Attribute var a165: Int64 = 165
    @Attribute var a166: Int64 = 166
    @Attribute var a167: Int64 = 167
    @Attribute var a168: Int64 = 168
    @Attribute var a169: Int64 = 169
    @Attribute var a170: Int64 = 170
    @Attribute var a171: Int64 = 171
    @Attribute var a172: Int64 = 172
    @Attribute var a173: Int64 = 173
    @Attribute var a174: Int64 = 174
    @Attribute var a175: Int64 = 175
    @Attribute var a176: Int64 = 176
    @Attribute var a177: Int64 = 177
    @Attribute var a178: Int64 = 178
    @Attribute var a179: Int64 = 179
    @Attribute var a180: Int64 = 180
    @Attribute var a181: Int64 = 181
    @Attribute var a182: Int64 = 182
    @Attribute var a183: Int64 = 183
    @Attribute var a184: Int64 = 184
    @Attribute var a185: Int64 = 185
    @Attribute var a186: Int64 = 186
    @Attribute var a187: Int64 = 187
    @Attribute var a188: Int64 = 188
    @Attribute var a189: Int64 = 189
    @Attribute var a190: Int64 = 190
    @Attribute var a191: Int64 = 191
    @Attribute var a192: Int64 = 192
    @Attribute var a193: Int64 = 193
    @Attribute var a194: Int64 = 194
    @Attribute var a195: Int64 = 195
    @Attribute var a196: Int64 = 196
    @Attribute var a197: Int64 = 197
    @Attribute var a198: Int64 = 198
    @Attribute var a199: Int64 = 199
    @Attribute var a200: Int64 = 200
    @Attribute var a201: Int64 = 201
    @Attribute var a202: Int64 = 202
    @Attribute var a203: Int64 = 203
    @Attribute var a204: Int64 = 204
    @Attribute var a205: Int64 = 205
    @Attribute var a206: Int64 = 206
    @Attribute var a207: Int64 = 207
    @Attribute var a208: Int64 = 208
    @Attribute var a209: Int64 = 209
    @Attribute var a210: Int64 = 210
    @Attribute var a211: Int64 = 211
    @Attribute var a212: Int64 = 212
    @Attribute var a213: Int64 = 213
    @Attribute var a214: Int64 = 214
    @Attribute var a215: Int64 = 215
    @Attribute var a216: Int64 = 216
    @Attribute var a217: Int64 = 217
    @Attribute var a218: Int64 = 218
    @Attribute var a219: Int64 = 219
    @Attribute var a220: Int64 = 220
    @Attribute var a221: Int64 = 221
    @Attribute var a222: Int64 = 222
    @Attribute var a223: Int64 = 223
    @Attribute var a224: Int64 = 224
    @Attribute var a225: Int64 = 225
    @Attribute var a226: Int64 = 226
    @Attribute var a227: Int64 = 227
    @Attribute var a228: Int64 = 228
    @Attribute var a229: Int64 = 229
    @Attribute var a230: Int64 = 230
    @Attribute var a231: Int64 = 231
    @Attribute var a232: Int64 = 232
    @Attribute var a233: Int64 = 233
    @Attribute var a234: Int64 = 234
    @Attribute var a235: Int64 = 235
    @Attribute var a236: Int64 = 236
    @Attribute var a237: Int64 = 237
    @Attribute var a238: Int64 = 238
    @Attribute var a239: Int64 = 239
    @Attribute var a240: Int64 = 240
    @Attribute var a241: Int64 = 241
    @Attribute var a242: Int64 = 242
    @Attribute var a243: Int64 = 243
    @Attribute var a244: Int64 = 244
    @Attribute var a245: Int64 = 245
    @Attribute var a246: Int64 = 246
    @Attribute var a247: Int64 = 247
    @Attribute var a248: Int64 = 248
    @Attribute var a249: Int64 = 249
    @Attribute var a250: Int64 = 250
    @Attribute var a251: Int64 = 251
    @Attribute var a252: Int64 = 252
    @Attribute var a253: Int64 = 253
    @Attribute var a254: Int64 = 254
    @Attribute var a255: Int64 = 255
    @Attribute var a256: Int64 = 256
    @Attribute var a257: Int64 = 257
    @Attribute var a258: Int64 = 258
    @Attribute var a259: Int64 = 259
}

/// Each `@Attribute` and `@Relationship` wrapper is one byte in its object: the slot, cached
/// on first access; slots too large for the byte are resolved on every access.
@Suite struct WrapperSlotTests {
    @Test func wrappersAreOneByte() {
        #expect(MemoryLayout<Attribute<Int64>>.size == 1)
        #expect(MemoryLayout<Attribute<String?>>.size == 1)
        #expect(MemoryLayout<Relationship<WideRecord?>>.size == 1)
    }

    @Test func slotsEncodeInOneByte() {
        var slot = WrapperSlot()
        #expect(slot.known == nil && slot.cached == -1)
        for value in [0, 1, 100, WrapperSlot.largestCached] {
            slot.cache(value)
            #expect(slot.known == value && slot.cached == value)
        }
        for value in [WrapperSlot.largestCached + 1, 254, 255, 256, 1_000, Int(Int16.max) + 1] {
            slot.cache(value)
            #expect(slot.known == nil && slot.cached == .max, "\(value)")
        }
        slot.cache(-2)
        #expect(slot.known == nil && slot.cached == -2)
        slot.cache(-1)
        #expect(slot.known == nil && slot.cached == -1)
    }

    @Test func propertiesBeyondTheCachedSlotsReadWriteSaveAndSort() throws {
        let model = try ManagedObjectModel(WideRecord.self)
        let container = try PersistentContainer(model: model, storeDescription: .inMemory)
        let context = container.newContext()
        let first = WideRecord(context: context)
        let second = WideRecord(context: context)
        #expect(first.a0 == 0 && first.a259 == 259 && first.a252 == 252 && first.a253 == 253)
        first.a259 = 9
        second.a259 = 3
        second.a253 = -1
        first.link = second
        #expect(first.a259 == 9 && second.a259 == 3 && second.a253 == -1 && first.link === second)
        try context.save()
        let other = container.newContext()
        let sorted = try other.fetch(FetchRequest<WideRecord>(sortBy: [SortDescriptor(\WideRecord.a259)]))
        #expect(sorted.map(\.a259) == [3, 9])
        #expect(sorted.map(\.a253) == [-1, 253])
        #expect(sorted[1].link === sorted[0])
        var request = WideRecord.fetchRequest()
        request.predicate = try FetchPredicate(format: "a259 > 5")
        #expect(try other.fetch(request).map(\.a259) == [9])
    }
}
