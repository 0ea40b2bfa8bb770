// The exhaustive connector switch: a registry row's `connector` names one folder here.
import type { Connector } from './connector.ts';
import type { ConnectorName } from './source-def.ts';
import * as kubra from './kubra/index.ts';
import * as nisc from './nisc/index.ts';
import * as arcgis from './arcgis/index.ts';
import * as odin from './odin/index.ts';
import * as fpl from './fpl/index.ts';
import * as milsoft from './milsoft/index.ts';
import * as outageentry from './outageentry/index.ts';
import * as datacapable from './datacapable/index.ts';
import * as ifactor from './ifactor/index.ts';
import * as omap from './omap/index.ts';
import * as pacificorp from './pacificorp/index.ts';
import * as smartc from './smartc/index.ts';
import * as wec from './wec/index.ts';
import * as puget from './puget/index.ts';
import * as nisource from './nisource/index.ts';
import * as pgegraphql from './pgegraphql/index.ts';
import * as midamerican from './midamerican/index.ts';
import * as smud from './smud/index.ts';
import * as idahopower from './idahopower/index.ts';
import * as mlgw from './mlgw/index.ts';
import * as tep from './tep/index.ts';
import * as nwe from './nwe/index.ts';
import * as aes from './aes/index.ts';
import * as teco from './teco/index.ts';
import * as kub from './kub/index.ts';
import * as clarkpud from './clarkpud/index.ts';
import * as novec from './novec/index.ts';
import * as luma from './luma/index.ts';
import * as anaheim from './anaheim/index.ts';
import * as gridvu from './gridvu/index.ts';
import * as sienatech from './sienatech/index.ts';
import * as duke from './duke/index.ts';
import * as avangrid from './avangrid/index.ts';
import * as pointlist from './pointlist/index.ts';
import * as heco from './heco/index.ts';
import * as elpaso from './elpaso/index.ts';
import * as snopud from './snopud/index.ts';
import * as gmp from './gmp/index.ts';
import * as liberty from './liberty/index.ts';
import * as chugach from './chugach/index.ts';
import * as milsoftmobile from './milsoftmobile/index.ts';

export function connectorFor(name: ConnectorName): Connector {
  switch (name) {
    case 'kubra':
      return kubra;
    case 'nisc':
      return nisc;
    case 'arcgis':
      return arcgis;
    case 'odin':
      return odin;
    case 'fpl':
      return fpl;
    case 'milsoft':
      return milsoft;
    case 'outageentry':
      return outageentry;
    case 'datacapable':
      return datacapable;
    case 'ifactor':
      return ifactor;
    case 'omap':
      return omap;
    case 'pacificorp':
      return pacificorp;
    case 'smartc':
      return smartc;
    case 'wec':
      return wec;
    case 'puget':
      return puget;
    case 'nisource':
      return nisource;
    case 'pgegraphql':
      return pgegraphql;
    case 'midamerican':
      return midamerican;
    case 'smud':
      return smud;
    case 'idahopower':
      return idahopower;
    case 'mlgw':
      return mlgw;
    case 'tep':
      return tep;
    case 'nwe':
      return nwe;
    case 'aes':
      return aes;
    case 'teco':
      return teco;
    case 'kub':
      return kub;
    case 'clarkpud':
      return clarkpud;
    case 'novec':
      return novec;
    case 'luma':
      return luma;
    case 'anaheim':
      return anaheim;
    case 'gridvu':
      return gridvu;
    case 'sienatech':
      return sienatech;
    case 'duke':
      return duke;
    case 'avangrid':
      return avangrid;
    case 'pointlist':
      return pointlist;
    case 'heco':
      return heco;
    case 'elpaso':
      return elpaso;
    case 'snopud':
      return snopud;
    case 'gmp':
      return gmp;
    case 'liberty':
      return liberty;
    case 'chugach':
      return chugach;
    case 'milsoftmobile':
      return milsoftmobile;
    default: {
      const never: never = name;
      throw new Error(`No connector named \`${String(never)}\``);
    }
  }
}
