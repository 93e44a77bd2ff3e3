import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

export type DnsAnswer = { type: 'TXT'; value: string } | { type: 'MX'; exchange: string; priority: number };

const TYPES = { TXT: 16, MX: 15 } as const;

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...parts.map((part) => Buffer.concat([Buffer.from([part.length]), Buffer.from(part)])),
    Buffer.from([0]),
  ]);
}

function readName(packet: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (packet[at] !== 0) {
    const length = packet[at]!;
    labels.push(packet.subarray(at + 1, at + 1 + length).toString());
    at += length + 1;
  }
  return { name: labels.join('.').toLowerCase(), end: at + 1 };
}

function rdata(answer: DnsAnswer): Buffer {
  if (answer.type === 'MX') {
    const priority = Buffer.alloc(2);
    priority.writeUInt16BE(answer.priority);
    return Buffer.concat([priority, encodeName(answer.exchange)]);
  }
  const chunks: Buffer[] = [];
  const bytes = Buffer.from(answer.value);
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const piece = bytes.subarray(i, i + 255);
    chunks.push(Buffer.from([piece.length]), piece);
    if (bytes.length === 0) break;
  }
  return Buffer.concat(chunks);
}

/** A tiny authoritative DNS server on 127.0.0.1 (UDP) answering TXT and MX from a map; NXDOMAIN otherwise. */
export class LocalDnsServer {
  readonly records = new Map<string, DnsAnswer[]>();
  private readonly socket: Socket = createSocket('udp4');
  queries = 0;

  add(name: string, answer: DnsAnswer): void {
    const key = name.toLowerCase().replace(/\.$/, '');
    this.records.set(key, [...(this.records.get(key) ?? []), answer]);
  }

  async start(): Promise<string> {
    this.socket.on('message', (packet, remote) => {
      this.queries += 1;
      const { name, end } = readName(packet, 12);
      const qtype = packet.readUInt16BE(end);
      const question = packet.subarray(12, end + 4);
      const known = this.records.get(name);
      const answers = (known ?? []).filter((answer) => TYPES[answer.type] === qtype);
      const header = Buffer.alloc(12);
      header.writeUInt16BE(packet.readUInt16BE(0), 0);
      header.writeUInt16BE(known ? 0x8180 : 0x8183, 2);
      header.writeUInt16BE(1, 4);
      header.writeUInt16BE(answers.length, 6);
      const body = answers.map((answer) => {
        const data = rdata(answer);
        const fixed = Buffer.alloc(12);
        fixed.writeUInt16BE(0xc00c, 0);
        fixed.writeUInt16BE(TYPES[answer.type], 2);
        fixed.writeUInt16BE(1, 4);
        fixed.writeUInt32BE(60, 6);
        fixed.writeUInt16BE(data.length, 10);
        return Buffer.concat([fixed, data]);
      });
      this.socket.send(Buffer.concat([header, question, ...body]), remote.port, remote.address);
    });
    await new Promise<void>((resolve) => this.socket.bind(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(this.socket.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }
}
