import CLibXML2
import CMirrorShims
import Foundation
func _probe() { xmlInitParser(); CMirrorShims_xmlFree(nil); _ = Data() }
