import CommissionFuzzing
import Foundation

// libFuzzer drives the bank files' readers (OFX, CAMT.053, MT940) with each input. SwiftPM links an executable's
// entry point as `fuzz_bank_files_main`, so that is where libFuzzer's driver is started.

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("fuzz_bank_files_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
        FuzzTargets.bankFiles(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }
}
