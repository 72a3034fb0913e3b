/// Something that attaches a chain and wants its attachment as soon as the chain's root has
/// made it (`DepthBounds.attaching(for:_:)`): a subscription, a node's feeder.
@usableFromInline protocol AttachmentReceiver: AnyObject {
    /// The attachment of the chain being attached, before the root activates what feeds it.
    /// Called on the attaching thread, inside its call of `attachChain`.
    func attachmentMade(_ attachment: ChainAttachment)
}
