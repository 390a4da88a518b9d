# The modification's cost model variants against dev4/plans.txt: which pair each picks (run from this folder; needs numpy)
exec(open('fit.py').read().split('X=[];Y=[];info=[]')[0])
import itertools
def model(k,w,mu,gf,calls,rate_q,rate_u,pc,cs,lim):
    nb1,b,nw,fq,r2,r1=plan(k,w,mu)
    steps=nw*k+M
    if lim and max(r2,r1)>lim: return None
    return fq/rate_q*1e3 + (gf*1e9-fq)/rate_u*1e3 + calls*pc*1e3 + steps*cs*1e3
for rq,ru,pc,cs,lim in [(5e12,5e12,6e-6,2.1e-6,0),(5e12,5e12,6e-6,2.1e-6,288),(25e12,5e12,6e-6,2.1e-6,288),(25e12,5e12,6e-6,2.1e-6,0),(25e12,5e12,10e-6,1.4e-6,288),(25e12,10e12,6e-6,1.4e-6,288)]:
    out=[]
    for k in (1,8,64):
        c=[(model(kk,w,mu,gf,calls,rq,ru,pc,cs,lim),t,w,mu) for kk,w,mu,lab,t,gf,calls in rows if kk==k and lab!='model']
        c=[x for x in c if x[0] is not None]
        best=min(c); out.append("k%d pick w%d m%d meas %.2f"%(k,best[2],best[3],best[1]*1e3))
    print(rq,ru,pc,cs,lim,' | '.join(out))
