extension TaskEvent {
    /// The task-delegate callback AFNetworking's `AFURLSessionManager` gets for this event
    /// (NSURLSession's selector), or Tincan's own name where NSURLSession has none.
    ///
    /// A slow-motion send lists these as they fire, so a learner sees which of AFNetworking's
    /// callbacks each stage leads to.
    public var delegateCallback: String? {
        switch self {
        case .resumed: "task resume (AFNetworkingTaskDidResumeNotification)"
        case .requestSent: "request handed to the transport (no NSURLSession callback)"
        case .uploadProgress: "URLSession:task:didSendBodyData:totalBytesSent:totalBytesExpectedToSend:"
        case .responseHead: "URLSession:dataTask:didReceiveResponse:completionHandler:"
        case .downloadProgress: "URLSession:dataTask:didReceiveData:"
        case .redirected: "URLSession:task:willPerformHTTPRedirection:newRequest:completionHandler:"
        case .retried(.authentication): "URLSession:task:didReceiveChallenge:completionHandler:"
        case .retried(.transient): "retried (no NSURLSession callback)"
        case .cache(.stored): "URLSession:dataTask:willCacheResponse:completionHandler:"
        case .cache: nil
        case .bodyReceived: "body received whole, serialized next (no NSURLSession callback)"
        case .completed: "URLSession:task:didCompleteWithError:"
        }
    }
}
