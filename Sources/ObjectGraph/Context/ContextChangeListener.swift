/// Something a context tells when it processed changes (a ``FetchedResultsController``).
protocol ContextChangeListener: AnyObject {
    func contextDidProcessChanges()
}
