import { dataPlaneView } from './data-plane-address';

const listening = { address: '0.0.0.0', family: 'IPv4', port: 8080 };

describe("the data plane's address as the dashboard shows it", () => {
  it("is the page's own origin when the dashboard is served by the data plane's listener", () => {
    expect(dataPlaneView({ host: '0.0.0.0' }, listening)).toEqual({ same_origin: true });
  });

  it('is the data-plane port and host when the dashboard is on ADMIN_PORT', () => {
    expect(dataPlaneView({ host: '10.0.0.5', adminPort: 9090 }, listening)).toEqual({ same_origin: false, host: '10.0.0.5', port: 8080 });
  });

  it("leaves the host to the page when the data plane listens on every interface", () => {
    expect(dataPlaneView({ host: '0.0.0.0', adminPort: 9090 }, listening)).toEqual({ same_origin: false, host: null, port: 8080 });
    expect(dataPlaneView({ host: '::', adminPort: 9090 }, listening)).toEqual({ same_origin: false, host: null, port: 8080 });
  });

  it('says nothing rather than guess when the data plane is not on a TCP port', () => {
    expect(dataPlaneView({ host: '0.0.0.0', adminPort: 9090 }, null)).toBeUndefined();
  });
});
