// Core runs in the browser and in Node, so it is compiled with neither the DOM library nor Node's
// types: these are the few web APIs it uses, which both provide. Only core's own tsconfig reads
// this file; the web app and the server check core's code against the full DOM or Node types.

interface URL {
  hash: string;
  host: string;
  hostname: string;
  href: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  username: string;
  toString(): string;
}
declare var URL: { prototype: URL; new (url: string, base?: string): URL };

declare function atob(data: string): string;
declare function btoa(data: string): string;
