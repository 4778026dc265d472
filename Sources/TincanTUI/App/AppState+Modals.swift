import TerminalUI
import TincanCore
import TincanSessions

/// Keys while a modal is open, and what a prompt's answer or a picker's choice changes.
extension AppState {
    /// Handles an event for the open modal: it gets every key until it closes, and decides it
    /// (``Modal/handle(_:screenHeight:)``); what its answer changes is the app's.
    mutating func handleModal(_ event: InputEvent) -> [Effect] {
        guard let current = modal else { return [] }
        switch current.handle(event, screenHeight: height) {
        case let .stays(modal):
            mode = .modal(modal)
        case .closed:
            closeModal()
        case .cancelled:
            closeModal()
            pendingAfterSave = nil
            if case .picker(let picker) = current, case .recoverDraft = picker.purpose {
                status = StatusMessage("The unsaved changes stay in their draft until this session is edited; restart to be asked again.")
            }
        case .togglesSecrets:
            revealsSecrets.toggle()
            showVariables()
        case let .chosen(purpose, option, index):
            closeModal()
            return choose(option, at: index, for: purpose)
        case .answered(var prompt, let text):
            if let refusal = answer(prompt.purpose, text) {
                prompt.error = refusal
                mode = .modal(.prompt(prompt))
            } else if case .prompt(let still) = modal, still == prompt {
                // An answer that opened another modal (a question after it) leaves that open.
                closeModal()
            }
        }
        return []
    }

    /// Applies a prompt's answer. - Returns: why it was refused, or nil when it was applied.
    private mutating func answer(_ purpose: Prompt.Purpose, _ text: String) -> String? {
        switch purpose {
        case .addHeader, .editHeader:
            let header: HeaderLine
            do throws(HeaderLine.Failure) {
                header = try HeaderLine(parsing: text)
            } catch {
                switch error {
                case .noSeparator: return "expected Name: value"
                case .invalidName(let name): return HeaderLine.invalidNameMessage(name)
                }
            }
            let index: Int? = if case let .editHeader(index) = purpose { index } else { nil }
            editor.setHeader(header.name, header.value, at: index)
        case .addParameter: return answerParameterKey(text)
        case .editValue:
            do {
                try parameters.setSelectedValue(parameters.selectedNode.value.type, text: text)
            } catch {
                return "\(error)"
            }
        case .renameParameter:
            do {
                try parameters.renameSelected(to: text)
            } catch {
                return "\(error)"
            }
        case .timeout:
            do {
                observed.timeoutInterval = try NumericRange.timeout.value(parsing: text)
            } catch {
                return "\(error)"
            }
        case .acceptableStatusCodes:
            do {
                acceptableStatusCodes = try StatusCodeSet(parsing: text)
            } catch {
                return "\(error)"
            }
        case .uploadLimit:
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty || trimmed == "0" {
                uploadBytesPerSecond = nil
            } else {
                do {
                    uploadBytesPerSecond = try ByteRate.checked(trimmed, range: NumericRange.uploadRate.named("upload"))
                } catch {
                    return "\(error)"
                }
            }
        case .maxBody:
            let trimmed = text.trimmingWhitespace()
            if trimmed.isEmpty {
                maxBody = nil
            } else {
                do {
                    _ = try TaskOptions.maximumBodyBytes(parsing: trimmed)
                } catch {
                    return "\(error)"
                }
                maxBody = trimmed
            }
        case .cookieFile: return answerCookieFile(text)
        case .proxy:
            let trimmed = text.trimmingWhitespace()
            if trimmed == "-" {
                workspace.session.defaults.proxy = ""
            } else if trimmed.isEmpty {
                workspace.session.defaults.proxy = nil
            } else {
                do {
                    _ = try ProxyServer(parsing: trimmed)
                } catch {
                    return "\(error)"
                }
                workspace.session.defaults.proxy = trimmed
            }
        case .noProxy:
            let trimmed = text.trimmingWhitespace()
            workspace.session.defaults.noProxy = trimmed.isEmpty ? nil : trimmed
        case .clientCertificate:
            let trimmed = text.trimmingWhitespace()
            workspace.session.defaults.tls.certificate = trimmed.isEmpty ? nil : trimmed
            if trimmed.isEmpty { workspace.session.defaults.tls.key = nil }
        case .clientKey:
            let trimmed = text.trimmingWhitespace()
            guard trimmed.isEmpty || workspace.session.defaults.tls.certificate != nil else { return "set the client certificate first" }
            workspace.session.defaults.tls.key = trimmed.isEmpty ? nil : trimmed
        case .retries: return answerRetries(text)
        case .saveAs: return answerSaveAs(text)
        case .openSession: return answerOpen(text, asker: promptAsker)
        case .renameRequest: renameRequest(text)
        case .saveBody: return answerSaveBody(text)
        case .bodyFilter: return answerBodyFilter(text)
        case .bodyContentType: return answerBodyContentType(text)
        case .bodyFile: return answerBodyFile(text)
        case .uploadFile: return answerUploadFile(text)
        case .uploadRate: return answerUploadRate(text)
        case .addQuery: return answerQueryField(text, at: nil)
        case .editQuery(let index): return answerQueryField(text, at: index)
        case .check(let edit): return answerCheck(edit, text)
        case .requestSetting(let row): return answerRequestSetting(row, text)
        case .webSocketMessage: return answerWebSocketMessage(text)
        }
        return nil
    }

    private mutating func choose(_ option: String, at index: Int, for purpose: Picker.Purpose) -> [Effect] {
        switch purpose {
        case .environment: chooseEnvironment(option)
        case .history: reopenHistory(index)
        case .compareFirst: pickComparison(first: index)
        case let .compareSecond(first):
            // The second list leaves the first out: map its index back.
            showComparison(first, index >= first ? index + 1 : index)
        case .commentConflict, .confirmOverwrite, .unsaved, .recoverDraft: return chooseFileAction(option, for: purpose)
        case .cookieJar, .cookieAction, .responseCache, .cacheAction: return chooseStoreAction(option, at: index, for: purpose)
        case let .confirmBodyOverwrite(path): chooseBodyOverwrite(option, path: path)
        case let .trust(path, digest): return chooseTrust(at: index, path: path, digest: digest)
        case .method: method = option
        case .serializer: serializer = SerializerKind(rawValue: option) ?? serializer
        case .cachePolicy: observed.cachePolicy = CachePolicy(rawValue: option)
        case .networkServiceType: observed.networkServiceType = NetworkServiceType(rawValue: option)
        case .responseSerializer: responseSerializer = ResponseSerializerKind(rawValue: option) ?? responseSerializer
        case .bodyKind: chooseBodyKind(BodySource.Kind.allCases[index])
        case .authType: chooseAuthScheme(option)
        case .copyFormat: return index == 0 ? copyAsCurl() : copyAsCode(CodeExport.Language.allCases[index - 1])
        case .oauth2Grant: chooseOAuth2Grant(option)
        case .oauth2ClientAuth: chooseOAuth2ClientAuthentication(option)
        case .parameterType(let key): addParameter(key: key, type: option)
        case .httpVersion: chooseHTTPVersion(option)
        case let .responsePath(path, assertion): return choosePathAction(at: index, path: path, assertion: assertion)
        }
        return []
    }
}
