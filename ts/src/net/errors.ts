/** Errors of the transport (reason codes of SPEC.md section 9), as p2pdurak/net/errors.py. */

import { PeerFault } from "../errors";

/** The other end of a connection broke the transport protocol; that connection is dropped (R-NET-5). */
export class NetFault extends PeerFault {}
