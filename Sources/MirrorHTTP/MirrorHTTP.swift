import CCurl
import CMirrorShims
import COpenSSL
func _probe() { let h = curl_easy_init(); _ = CMirrorShims_curl_easy_setopt_long(h, CURLOPT_VERBOSE, 0); curl_easy_cleanup(h); let s = CMirrorShims_sk_X509_new_null(); CMirrorShims_sk_X509_free(s); _ = SSL_CTX_new(TLS_client_method()) }
