/** A raw RFC 5322 message as an SMTP server would hand it over, with one attachment if given. */
export function mail(
  headers: Record<string, string>,
  body: string,
  attachment?: { name: string; type: string; bytes: Buffer },
) {
  const head = Object.entries({ 'MIME-Version': '1.0', ...headers })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  if (!attachment) return Buffer.from(`${head}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n`);
  const b = 'BOUNDARY42';
  return Buffer.from(
    `${head}\r\nContent-Type: multipart/mixed; boundary="${b}"\r\n\r\n--${b}\r\nContent-Type: text/plain\r\n\r\n${body}\r\n` +
      `--${b}\r\nContent-Type: ${attachment.type}; name="${attachment.name}"\r\nContent-Disposition: attachment; filename="${attachment.name}"\r\n` +
      `Content-Transfer-Encoding: base64\r\n\r\n${attachment.bytes.toString('base64')}\r\n--${b}--\r\n`,
  );
}
